package upstream

// The complete test configs, for the package's external tests.
var (
	TestCatAPI  = testCatAPI
	TestCommons = testCommons
)

// testCatAPI is a complete CatAPIConfig for the API at url.
func testCatAPI(url string) CatAPIConfig {
	return CatAPIConfig{BaseURL: url, Size: "med", MaxBytes: 10 << 20}
}

// testCommons is a complete CommonsConfig for the API at url.
func testCommons(url string) CommonsConfig {
	return CommonsConfig{
		APIURL: url, Category: "Category:Quality images of cats", ThumbWidth: 1280,
		UserAgent: "signal-bot-test/1.0 (https://example.org/bot; bot@example.org)", MaxBytes: 10 << 20,
	}
}
