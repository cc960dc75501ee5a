package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func sign(secret, ts, body string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "." + body))
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// A signed request gets the time in its city, as text/plain, and the
// hook's spans continue the trace its traceparent names; a request without
// a good signature gets 401.
func TestCzas(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	now := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	srv := httptest.NewServer(hook{secret: "0123456789abcdef", tracer: tp.Tracer("t"), now: func() time.Time { return now }})
	defer srv.Close()
	const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	post := func(body, sig, ts string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/czas", strings.NewReader(body))
		req.Header.Set("X-Signal-Bot-Timestamp", ts)
		req.Header.Set("X-Signal-Bot-Signature", sig)
		req.Header.Set("traceparent", parent)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	ts := strconv.FormatInt(now.Unix(), 10)
	tests := []struct {
		name, body, sig, ts string
		wantCode            int
		wantText            string
	}{
		{"Tokio", `{"command":"czas","args":"Tokio","lang":"pl"}`, "", ts, 200, "Tokio: 21:00 (Asia/Tokyo)"},
		{"no city", `{"command":"czas","args":"","lang":"pl"}`, "", ts, 200, "Warszawa: 13:00 (Europe/Warsaw)"},
		{"unknown, in English", `{"command":"czas","args":"Gdańsk","lang":"en"}`, "", ts, 200, "I do not know Gdańsk."},
		{"bad signature", `{"args":"Tokio"}`, "sha256=00", ts, 401, "bad signature"},
		{"stale", `{"args":"Tokio"}`, "", strconv.FormatInt(now.Add(-time.Hour).Unix(), 10), 401, "no fresh timestamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig := tt.sig
			if sig == "" {
				sig = sign("0123456789abcdef", tt.ts, tt.body)
			}
			code, text := post(tt.body, sig, tt.ts)
			if code != tt.wantCode || !strings.Contains(text, tt.wantText) {
				t.Errorf("%d %q; want %d %q", code, text, tt.wantCode, tt.wantText)
			}
		})
	}
	for _, s := range rec.Ended() {
		if s.SpanContext().TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" {
			t.Errorf("span %s in trace %s; want the bot's", s.Name(), s.SpanContext().TraceID())
		}
		if s.Name() == "POST /czas" && s.Parent().SpanID().String() != "00f067aa0ba902b7" {
			t.Errorf("server span's parent %s; want the bot's upstream leg", s.Parent().SpanID())
		}
	}
}
