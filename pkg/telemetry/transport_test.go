package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

func TestNewTransport(t *testing.T) {
	var gotTraceparent []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotTraceparent = append(gotTraceparent, r.Header.Get("traceparent"))
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")

	tests := []struct {
		name        string
		leg         string
		method      string
		path        string
		wantName    string
		wantURLFull string
		secrets     []string
	}{
		{name: "upstream with key in query", leg: LegUpstream, method: http.MethodGet,
			path: "/v1/images/search?api_key=SECRET-KEY&q=my+cat", wantName: "GET " + host,
			wantURLFull: srv.URL + "/v1/images/search?api_key=REDACTED&q=REDACTED", secrets: []string{"SECRET-KEY", "cat"}},
		{name: "send", leg: LegSend, method: http.MethodPost, path: "/v2/send", wantName: "POST /v2/send",
			wantURLFull: srv.URL + "/v2/send"},
		{name: "number in path", leg: LegSend, method: http.MethodGet, path: "/v1/groups/+4912345678",
			wantName: "GET /v1/groups/REDACTED", wantURLFull: srv.URL + "/v1/groups/REDACTED", secrets: []string{"4912345678"}},
		{name: "typing, named by path as otel/SPANS.md has it", leg: LegTyping, method: http.MethodPut, path: "/v1/typing-indicator/+4912345678",
			wantName: "PUT /v1/typing-indicator/REDACTED", wantURLFull: srv.URL + "/v1/typing-indicator/REDACTED", secrets: []string{"4912345678"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := tracetest.NewSpanRecorder()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
			defer func() { _ = tp.Shutdown(context.Background()) }()
			client := &http.Client{Transport: NewTransport(srv.Client().Transport, tp, tt.leg)}

			ctx, parent := tp.Tracer(TracerName).Start(context.Background(), SpanHandler)
			req, err := http.NewRequestWithContext(ctx, tt.method, srv.URL+tt.path, strings.NewReader("{}"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
			parent.End()

			spans := rec.Ended()
			if len(spans) != 2 {
				t.Fatalf("ended spans = %d; want 2", len(spans))
			}
			s := spans[0]
			if s.Name() != tt.wantName || s.SpanKind() != trace.SpanKindClient {
				t.Errorf("span = %q kind %v; want %q kind client", s.Name(), s.SpanKind(), tt.wantName)
			}
			if s.Parent().SpanID() != parent.SpanContext().SpanID() {
				t.Errorf("client span is not a child of the handler")
			}
			if got := stringAttr(s, AttrLeg); got != tt.leg {
				t.Errorf("bot.leg = %q; want %q", got, tt.leg)
			}
			if got := stringAttr(s, "url.full"); got != tt.wantURLFull {
				t.Errorf("url.full = %q; want %q", got, tt.wantURLFull)
			}
			for _, kv := range s.Attributes() {
				for _, secret := range tt.secrets {
					if strings.Contains(kv.Value.String(), secret) {
						t.Errorf("attribute %s = %q leaks %q", kv.Key, kv.Value.String(), secret)
					}
				}
			}
		})
	}
	for _, tp := range gotTraceparent {
		if tp != "" {
			t.Errorf("request carried traceparent %q; want none", tp)
		}
	}
}

func TestSpanNameFormatterHostFallback(t *testing.T) {
	r := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: "/x"}, Host: "example.org"}
	if got, want := spanNameFormatter(LegUpstream)("", r), "GET example.org"; got != want {
		t.Errorf("span name = %q; want %q", got, want)
	}
}
