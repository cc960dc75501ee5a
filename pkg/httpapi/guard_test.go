package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// What a web page in the operator's browser, or a DNS rebinding name, can
// send is refused before any handler runs, and no message is sent.
func TestGuardRefusesCrossSiteAndRebinding(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"HTTP_ALLOWED_HOSTS": "signal-bot"})
	h.Start()
	body := `{"group":"testbot","text":"!pomoc"}`
	tests := []struct {
		name, method, path, host, ctype string
		wantStatus                      int
	}{
		{"a rebinding name", "POST", "/_selftest", "evil.example", "application/json", http.StatusMisdirectedRequest},
		{"a rebinding name reading healthz", "GET", "/healthz", "evil.example:9923", "", http.StatusMisdirectedRequest},
		{"a form post", "POST", "/_selftest", "", "text/plain", http.StatusUnsupportedMediaType},
		{"an urlencoded form", "POST", "/_selftest", "", "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"no content type", "POST", "/_selftest", "", "", http.StatusUnsupportedMediaType},
		{"an override by form", "PUT", "/_override", "", "text/plain", http.StatusUnsupportedMediaType},
		{"loopback by name", "GET", "/healthz", "localhost:9923", "", http.StatusOK},
		{"IPv6 loopback", "GET", "/healthz", "[::1]:9923", "", http.StatusOK},
		{"an allowed service name", "GET", "/healthz", "signal-bot:9923", "", http.StatusOK},
		{"json with a charset", "POST", "/_selftest", "", "application/json; charset=utf-8", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rd *strings.Reader
			if tt.method != "GET" {
				rd = strings.NewReader(body)
			} else {
				rd = strings.NewReader("")
			}
			req, err := http.NewRequest(tt.method, h.URL()+tt.path, rd)
			if err != nil {
				t.Fatal(err)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			if tt.ctype != "" {
				req.Header.Set("Content-Type", tt.ctype)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.wantStatus {
				t.Errorf("%s %s Host %q Content-Type %q = %d; want %d", tt.method, tt.path, tt.host, tt.ctype, res.StatusCode, tt.wantStatus)
			}
		})
	}
	if got := len(h.Sim.Sent()); got != 1 {
		t.Errorf("%d messages sent; want 1, the one allowed /_selftest", got)
	}
}
