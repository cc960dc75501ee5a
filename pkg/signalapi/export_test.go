package signalapi

// TestConfig is testConfig for the package's external tests.
var TestConfig = testConfig
