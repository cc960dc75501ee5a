package signalapi

import "time"

// testConfig is a complete Config for the REST API at url; the timeouts are
// long enough not to matter to a test that does not set its own.
func testConfig(url, number string) Config {
	return Config{BaseURL: url, Number: number, CallTimeout: 10 * time.Second, SendTimeout: 10 * time.Second, ReadTimeout: time.Minute}
}

// TestConfig is testConfig for the package's external tests.
var TestConfig = testConfig
