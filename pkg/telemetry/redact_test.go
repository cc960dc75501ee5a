package telemetry

import (
	"net/url"
	"testing"
)

func TestRedactURL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://api.thecatapi.com/v1/images/search?api_key=SECRET&limit=1",
			"https://api.thecatapi.com/v1/images/search?api_key=REDACTED&limit=REDACTED"},
		{"http://user:pw@127.0.0.1:9922/v2/send", "http://127.0.0.1:9922/v2/send"},
		{"http://127.0.0.1:9922/v1/groups/+4912345678", "http://127.0.0.1:9922/v1/groups/REDACTED"},
		{"http://127.0.0.1:9922/v1/groups/%2B4912345678/group.YWJjZA==",
			"http://127.0.0.1:9922/v1/groups/REDACTED/REDACTED"},
		{"http://h/v1/x/0b0f6a2e-3c1d-4f5e-8a9b-1c2d3e4f5a6b?token", "http://h/v1/x/REDACTED?REDACTED"},
		{"https://commons.wikimedia.org/w/api.php?action=query&srsearch=my+cat#frag",
			"https://commons.wikimedia.org/w/api.php?action=REDACTED&srsearch=REDACTED"},
		{"http://h/v1/attachments/abc123.jpg", "http://h/v1/attachments/abc123.jpg"},
		{"http://h/v2/send", "http://h/v2/send"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := RedactURL(u); got != tt.want {
			t.Errorf("RedactURL(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
	if got := RedactURL(nil); got != "" {
		t.Errorf("RedactURL(nil) = %q; want empty", got)
	}
}

func TestRedactRawURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://api.thecatapi.com/v1/images/search?size=med", "https://api.thecatapi.com/v1/images/search?size=REDACTED"},
		{"https://user:pass@x/y?Token=abc", "https://x/y?Token=REDACTED"},
		{"::not a url", ""},
	}
	for _, tt := range tests {
		if got := RedactRawURL(tt.in); got != tt.want {
			t.Errorf("RedactRawURL(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
