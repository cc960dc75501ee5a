package signalapi

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// testConfig is a complete Config for the REST API at url; the timeouts are
// long enough not to matter to a test that does not set its own.
func testConfig(url, number string) Config {
	return Config{BaseURL: url, Number: number, CallTimeout: 10 * time.Second, SendTimeout: 10 * time.Second, ReadTimeout: time.Minute}
}

// New refuses a Config that lacks a field it needs, naming the field,
// instead of running with a number of its own.
func TestNewRequiresConfig(t *testing.T) {
	tests := []struct {
		field string
		unset func(*Config)
	}{
		{"Config.BaseURL", func(c *Config) { c.BaseURL = "" }},
		{"Config.Number", func(c *Config) { c.Number = "" }},
		{"Config.CallTimeout", func(c *Config) { c.CallTimeout = 0 }},
		{"Config.SendTimeout", func(c *Config) { c.SendTimeout = 0 }},
		{"Config.ReadTimeout", func(c *Config) { c.ReadTimeout = -time.Second }},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			cfg := testConfig("http://127.0.0.1:1", "+48500000001")
			tt.unset(&cfg)
			if _, err := New(cfg, &http.Client{}); err == nil || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("New without %s = %v; want an error naming it", tt.field, err)
			}
		})
	}
	if _, err := New(testConfig("http://127.0.0.1:1", "+48500000001"), nil); err != nil {
		t.Errorf("New(testConfig) = %v; want nil", err)
	}
}
