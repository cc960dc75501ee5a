package upstream

import (
	"strings"
	"testing"
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

// The constructors refuse a config that lacks a field they need, naming the
// field, instead of running with a value of their own.
func TestNewRequiresConfig(t *testing.T) {
	const url = "http://127.0.0.1:1"
	cat := func(set func(*CatAPIConfig)) error {
		c := testCatAPI(url)
		set(&c)
		_, err := NewCatAPI(nil, c)
		return err
	}
	commons := func(set func(*CommonsConfig)) error {
		c := testCommons(url)
		set(&c)
		_, err := NewCommons(nil, c)
		return err
	}
	tests := []struct {
		field string
		err   error
	}{
		{"CatAPIConfig.BaseURL", cat(func(c *CatAPIConfig) { c.BaseURL = "" })},
		{"CatAPIConfig.Size", cat(func(c *CatAPIConfig) { c.Size = "" })},
		{"CatAPIConfig.MaxBytes", cat(func(c *CatAPIConfig) { c.MaxBytes = 0 })},
		{"CommonsConfig.APIURL", commons(func(c *CommonsConfig) { c.APIURL = "" })},
		{"CommonsConfig.Category", commons(func(c *CommonsConfig) { c.Category = "" })},
		{"CommonsConfig.ThumbWidth", commons(func(c *CommonsConfig) { c.ThumbWidth = 0 })},
		{"CommonsConfig.UserAgent", commons(func(c *CommonsConfig) { c.UserAgent = "" })},
		{"CommonsConfig.MaxBytes", commons(func(c *CommonsConfig) { c.MaxBytes = -1 })},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.field) {
			t.Errorf("without %s: %v; want an error naming it", tt.field, tt.err)
		}
	}
	if err := cat(func(*CatAPIConfig) {}); err != nil {
		t.Errorf("NewCatAPI(testCatAPI) = %v; want nil", err)
	}
	if err := commons(func(*CommonsConfig) {}); err != nil {
		t.Errorf("NewCommons(testCommons) = %v; want nil", err)
	}
}
