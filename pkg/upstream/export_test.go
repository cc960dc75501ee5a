package upstream

// The complete test configs, for the package's external tests.
var (
	TestCatAPI  = testCatAPI
	TestCommons = testCommons
)
