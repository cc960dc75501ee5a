package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// The DELETE that puts the cooldown back is retried while the bot refuses it
// for the moment (429 from its rate limit), and works on a cancelled run.
func TestLeaseReleaseRetries(t *testing.T) {
	var deletes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPut:
			io.WriteString(w, `{"command":"kot","active":true,"until":"2030-01-01T00:00:00Z"}`)
		case deletes.Add(1) < 3:
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"error":"too many selftest requests"}`)
		default:
			io.WriteString(w, `{"active":false}`)
		}
	}))
	defer srv.Close()
	c := newClient(srv.URL, "", 1)
	defer c.close()
	ctx, cancel := context.WithCancel(context.Background())
	l, err := takeLease(ctx, c, "testbot", "cat", func() time.Duration { return time.Second }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if l.command != "kot" {
		t.Errorf("lease command = %q; want the bot's canonical %q", l.command, "kot")
	}
	cancel()
	if err := l.release(ctx); err != nil {
		t.Errorf("release() = %v; want nil after retries", err)
	}
	if got := deletes.Load(); got != 3 {
		t.Errorf("%d DELETEs; want 3 (two refused, one accepted)", got)
	}
}
