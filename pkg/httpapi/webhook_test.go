package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"signal-bot/pkg/httpapi"
)

// post sends body to the handler and returns the status.
func post(t *testing.T, h http.Handler, method, target, body string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, strings.NewReader(body)))
	return rec.Code
}

const receiveLine = `{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"timestamp":1},"account":"+48500000001"}}` + "\n"

func TestWebhookMount(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) }) // the webhook
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, bad := range []string{"/", "/healthz", "/_selftest", "/_override", "/metrics", "webhook", "/{x}", "/a b"} {
		if err := httpapi.CheckWebhookPath(bad); err == nil {
			t.Errorf("CheckWebhookPath(%q) accepted; want an error", bad)
		}
	}
	if err := httpapi.CheckWebhookPath("/_webhook"); err != nil {
		t.Fatal(err)
	}
	mux := httpapi.MountWebhook("/_webhook", h, next)
	if got := post(t, mux, "POST", "/_webhook", receiveLine); got != 200 {
		t.Errorf("POST /_webhook = %d; want 200", got)
	}
	if got := post(t, mux, "GET", "/healthz", ""); got != http.StatusTeapot {
		t.Errorf("GET /healthz = %d; want it passed on", got)
	}
}

func TestCheckWebhook(t *testing.T) {
	tests := []struct {
		addr, token string
		wantErr     bool
	}{
		{"127.0.0.1:9923", "", false},
		{"[::1]:9923", "", false},
		{"0.0.0.0:9923", "", true},
		{"0.0.0.0:9923", "t", false},
	}
	for _, tt := range tests {
		if err := httpapi.CheckWebhook(tt.addr, tt.token); (err != nil) != tt.wantErr {
			t.Errorf("CheckWebhook(%q, %q) = %v; want error %v", tt.addr, tt.token, err, tt.wantErr)
		}
	}
}
