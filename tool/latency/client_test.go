package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A 429 without a trace id is the bot's rate limit (wait and retry); with one
// it is a command cooling down (a refused reply).
func TestThrottled(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		body       string
		retryAfter string
		want       bool
		wantAfter  time.Duration
	}{
		{"rate limit", 429, `{"error":"too many selftest requests; see SELFTEST_RATE"}`, "", true, 0},
		{"rate limit with Retry-After", 429, `{"error":"too many"}`, "2", true, 2 * time.Second},
		{"cooldown", 429, `{"error":"command is cooling down in this group","trace_id":"abc"}`, "", false, 0},
		{"intake full", 503, `{"error":"frame not accepted: full"}`, "", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				if tt.retryAfter != "" {
					w.Header().Set("Retry-After", tt.retryAfter)
				}
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			c := newClient(srv.URL, "", 1)
			defer c.close()
			_, err := c.selftest(context.Background(), "testbot", "!pomoc", 0)
			if got := throttled(err); got != tt.want {
				t.Errorf("throttled(%v) = %v; want %v", err, got, tt.want)
			}
			if se, ok := err.(*statusError); !ok || se.retryAfter != tt.wantAfter || se.status != tt.status {
				t.Errorf("error = %#v; want status %d, Retry-After %v", err, tt.status, tt.wantAfter)
			}
		})
	}
}
