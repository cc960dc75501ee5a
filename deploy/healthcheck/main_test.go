package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHealthURL(t *testing.T) {
	tests := []struct {
		addr, want string
	}{
		{"", "http://127.0.0.1:9923/healthz"},
		{"127.0.0.1:9923", "http://127.0.0.1:9923/healthz"},
		{"0.0.0.0:9923", "http://127.0.0.1:9923/healthz"},
		{":9923", "http://127.0.0.1:9923/healthz"},
		{"[::]:9923", "http://[::1]:9923/healthz"},
		{"[::1]:8000", "http://[::1]:8000/healthz"},
		{"localhost:9923", "http://localhost:9923/healthz"},
	}
	for _, tt := range tests {
		if got := healthURL(tt.addr); got != tt.want {
			t.Errorf("healthURL(%q) = %q; want %q", tt.addr, got, tt.want)
		}
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		status int
		want   int
	}{
		{"ok", http.StatusOK, 0},
		{"degraded", http.StatusServiceUnavailable, 1},
		{"not found", http.StatusNotFound, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/healthz" {
					http.NotFound(w, r)
					return
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(`{"status":"x"}`))
			}))
			defer srv.Close()
			addr := srv.Listener.Addr().String()
			var out bytes.Buffer
			if got := run(env(addr), &out); got != tt.want {
				t.Errorf("run against %d = %d; want %d (output %q)", tt.status, got, tt.want, out.String())
			}
		})
	}
}

func TestRunNobodyListening(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var out bytes.Buffer
	if got := run(env(addr), &out); got != 1 {
		t.Errorf("run with nobody on %s = %d; want 1", addr, got)
	}
}

func env(addr string) func(string) string {
	return func(k string) string {
		if k == "HTTP_ADDR" {
			return addr
		}
		return ""
	}
}
