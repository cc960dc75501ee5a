package telemetry

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// fakeBase is the transport under NewTransport in these tests: it keeps
// the request it got and answers with status and a body, or fails with err.
type fakeBase struct {
	status int
	err    error
	got    *http.Request
	body   *trackedBody
}

func (f *fakeBase) RoundTrip(r *http.Request) (*http.Response, error) {
	f.got = r
	if f.err != nil {
		return nil, f.err
	}
	f.body = &trackedBody{Reader: strings.NewReader(`{"ok":true}`)}
	return &http.Response{StatusCode: f.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: f.body, Request: r}, nil
}

// trackedBody is a response body that counts its Close calls.
type trackedBody struct {
	io.Reader
	closed int
}

func (b *trackedBody) Close() error { b.closed++; return nil }

// dialError is a transport error of a named type, for error.type.
type dialError struct{}

func (dialError) Error() string { return "dial tcp 192.0.2.1:443: connection refused" }

// newTestTransport returns a recording provider, its recorder, and
// NewTransport(base, that provider, leg).
func newTestTransport(t *testing.T, base http.RoundTripper, leg string) (*tracetest.SpanRecorder, trace.Tracer, http.RoundTripper) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return rec, tp.Tracer(TracerName), NewTransport(base, tp, leg)
}

func attrMap(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestTransportSpan(t *testing.T) {
	tests := []struct {
		name       string
		leg        string
		method     string
		url        string
		base       fakeBase
		wantName   string
		wantAttrs  map[attribute.Key]attribute.Value
		wantStatus sdktrace.Status
	}{
		{name: "send 201", leg: LegSend, method: http.MethodPost, url: "http://signal-api:8080/v2/send",
			base: fakeBase{status: 201}, wantName: "POST /v2/send",
			wantAttrs: map[attribute.Key]attribute.Value{
				"bot.leg": attribute.StringValue("send"), "http.request.method": attribute.StringValue("POST"),
				"url.full": attribute.StringValue("http://signal-api:8080/v2/send"), "server.address": attribute.StringValue("signal-api"),
				"server.port": attribute.IntValue(8080), "http.response.status_code": attribute.IntValue(201),
				"network.protocol.version": attribute.StringValue("1.1"),
			}},
		{name: "send 429", leg: LegSend, method: http.MethodPost, url: "http://signal-api:8080/v2/send",
			base: fakeBase{status: 429}, wantName: "POST /v2/send", wantStatus: sdktrace.Status{Code: codes.Error},
			wantAttrs: map[attribute.Key]attribute.Value{
				"bot.leg": attribute.StringValue("send"), "http.request.method": attribute.StringValue("POST"),
				"url.full": attribute.StringValue("http://signal-api:8080/v2/send"), "server.address": attribute.StringValue("signal-api"),
				"server.port": attribute.IntValue(8080), "http.response.status_code": attribute.IntValue(429),
				"error.type": attribute.StringValue("429"), "network.protocol.version": attribute.StringValue("1.1"),
			}},
		{name: "upstream 500, https on its default port", leg: LegUpstream, method: http.MethodGet,
			url: "https://api.thecatapi.com:443/v1/images/search?api_key=SECRET&limit=1", base: fakeBase{status: 500},
			wantName: "GET api.thecatapi.com:443", wantStatus: sdktrace.Status{Code: codes.Error},
			wantAttrs: map[attribute.Key]attribute.Value{
				"bot.leg": attribute.StringValue("upstream"), "http.request.method": attribute.StringValue("GET"),
				"url.full":       attribute.StringValue("https://api.thecatapi.com:443/v1/images/search?api_key=REDACTED&limit=REDACTED"),
				"server.address": attribute.StringValue("api.thecatapi.com"), "http.response.status_code": attribute.IntValue(500),
				"error.type": attribute.StringValue("500"), "network.protocol.version": attribute.StringValue("1.1"),
			}},
		{name: "transport error", leg: LegUpstream, method: http.MethodGet, url: "https://api.thecatapi.com/v1/images/search",
			base: fakeBase{err: dialError{}}, wantName: "GET api.thecatapi.com",
			wantStatus: sdktrace.Status{Code: codes.Error, Description: dialError{}.Error()},
			wantAttrs: map[attribute.Key]attribute.Value{
				"bot.leg": attribute.StringValue("upstream"), "http.request.method": attribute.StringValue("GET"),
				"url.full":       attribute.StringValue("https://api.thecatapi.com/v1/images/search"),
				"server.address": attribute.StringValue("api.thecatapi.com"),
				"error.type":     attribute.StringValue("signal-bot/pkg/telemetry.dialError"),
			}},
		{name: "typing, user info and fragment dropped", leg: LegTyping, method: http.MethodPut,
			url: "http://user:pw@signal-api/v1/typing-indicator/+4912345678#f", base: fakeBase{status: 204},
			wantName: "PUT /v1/typing-indicator/REDACTED",
			wantAttrs: map[attribute.Key]attribute.Value{
				"bot.leg": attribute.StringValue("typing"), "http.request.method": attribute.StringValue("PUT"),
				"url.full":       attribute.StringValue("http://signal-api/v1/typing-indicator/REDACTED"),
				"server.address": attribute.StringValue("signal-api"), "http.response.status_code": attribute.IntValue(204),
				"network.protocol.version": attribute.StringValue("1.1"),
			}},
		{name: "standard method in lower case", leg: LegUpstream, method: "get", url: "https://commons.wikimedia.org/w/api.php",
			base: fakeBase{status: 200}, wantName: "get commons.wikimedia.org",
			wantAttrs: map[attribute.Key]attribute.Value{
				"bot.leg": attribute.StringValue("upstream"), "http.request.method": attribute.StringValue("GET"),
				"http.request.method_original": attribute.StringValue("get"),
				"url.full":                     attribute.StringValue("https://commons.wikimedia.org/w/api.php"),
				"server.address":               attribute.StringValue("commons.wikimedia.org"), "http.response.status_code": attribute.IntValue(200),
				"network.protocol.version": attribute.StringValue("1.1"),
			}},
		{name: "method outside the standard set", leg: LegSend, method: "purge", url: "http://[::1]:9922/v1/about",
			base: fakeBase{status: 200}, wantName: "purge /v1/about",
			wantAttrs: map[attribute.Key]attribute.Value{
				"bot.leg": attribute.StringValue("send"), "http.request.method": attribute.StringValue("_OTHER"),
				"http.request.method_original": attribute.StringValue("purge"),
				"url.full":                     attribute.StringValue("http://[::1]:9922/v1/about"), "server.address": attribute.StringValue("::1"),
				"server.port": attribute.IntValue(9922), "http.response.status_code": attribute.IntValue(200),
				"network.protocol.version": attribute.StringValue("1.1"),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := tt.base
			rec, tr, rt := newTestTransport(t, &base, tt.leg)
			ctx, parent := tr.Start(context.Background(), SpanHandler)
			defer parent.End()
			req, err := http.NewRequestWithContext(ctx, tt.method, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := rt.RoundTrip(req)
			if (err != nil) != (tt.base.err != nil) {
				t.Fatalf("RoundTrip error = %v; want %v", err, tt.base.err)
			}
			if res != nil {
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
			}
			spans := rec.Ended()
			if len(spans) != 1 {
				t.Fatalf("ended spans = %d; want 1", len(spans))
			}
			s := spans[0]
			if s.Name() != tt.wantName || s.SpanKind() != trace.SpanKindClient {
				t.Errorf("span = %q kind %v; want %q kind client", s.Name(), s.SpanKind(), tt.wantName)
			}
			if s.Parent().SpanID() != parent.SpanContext().SpanID() {
				t.Errorf("client span is not a child of the handler")
			}
			if s.InstrumentationScope().Name != HTTPTracerName {
				t.Errorf("scope = %q; want %q", s.InstrumentationScope().Name, HTTPTracerName)
			}
			if got := attrMap(s); !equalAttrs(got, tt.wantAttrs) {
				t.Errorf("attributes = %v; want %v", got, tt.wantAttrs)
			}
			if s.Status() != tt.wantStatus {
				t.Errorf("status = %+v; want %+v", s.Status(), tt.wantStatus)
			}
		})
	}
}

func equalAttrs(a, b map[attribute.Key]attribute.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestTransportSpanEnd checks that the client span lasts until the response
// body reaches EOF or is closed, and ends once however the body is used.
func TestTransportSpanEnd(t *testing.T) {
	tests := []struct {
		name      string
		use       func(io.ReadCloser) // What the caller does with the body.
		wantEnded int                 // Spans ended after use.
	}{
		{name: "nothing yet", use: func(io.ReadCloser) {}, wantEnded: 0},
		{name: "partial read", use: func(b io.ReadCloser) { _, _ = b.Read(make([]byte, 2)) }, wantEnded: 0},
		{name: "read to EOF", use: func(b io.ReadCloser) { _, _ = io.Copy(io.Discard, b) }, wantEnded: 1},
		{name: "Close unread", use: func(b io.ReadCloser) { _ = b.Close() }, wantEnded: 1},
		{name: "EOF, Close, Close", use: func(b io.ReadCloser) {
			_, _ = io.Copy(io.Discard, b)
			_, _ = b.Read(make([]byte, 1))
			_ = b.Close()
			_ = b.Close()
		}, wantEnded: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := &fakeBase{status: 201}
			rec, _, rt := newTestTransport(t, base, LegSend)
			req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://signal-api/v2/send", nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := rt.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(rec.Ended()); n != 0 {
				t.Fatalf("%d spans ended before the body was used; want 0", n)
			}
			tt.use(res.Body)
			if n := len(rec.Ended()); n != tt.wantEnded {
				t.Errorf("ended spans = %d; want %d", n, tt.wantEnded)
			}
			if n := len(rec.Started()); n != 1 {
				t.Errorf("started spans = %d; want 1", n)
			}
			_ = res.Body.Close()
			if n := len(rec.Ended()); n != 1 {
				t.Errorf("ended spans after Close = %d; want 1", n)
			}
			if base.body.closed < 1 {
				t.Errorf("the base's body was not closed")
			}
		})
	}
}

// TestTransportRequest checks what the base transport gets: the caller's
// request unchanged but for its context, which holds the client span, and
// no trace context in the headers, even with a global propagator set.
func TestTransportRequest(t *testing.T) {
	prev := otel.GetTextMapPropagator()
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	t.Cleanup(func() { otel.SetTextMapPropagator(prev) })

	for _, leg := range []string{LegUpstream, LegSend, LegTyping} {
		t.Run(leg, func(t *testing.T) {
			base := &fakeBase{status: 200}
			rec, tr, rt := newTestTransport(t, base, leg)
			ctx, parent := tr.Start(context.Background(), SpanHandler)
			defer parent.End()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://signal-api/v1/about", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Accept", "application/json")
			res, err := rt.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = res.Body.Close()
			for _, h := range []string{"traceparent", "tracestate", "baggage"} {
				if v := base.got.Header.Get(h); v != "" {
					t.Errorf("request carried %s %q; want none", h, v)
				}
			}
			if len(base.got.Header) != 1 || base.got.URL.String() != req.URL.String() || base.got.Method != req.Method {
				t.Errorf("base got %s %v with headers %v; want the caller's request", base.got.Method, base.got.URL, base.got.Header)
			}
			spans := rec.Ended()
			if len(spans) != 1 {
				t.Fatalf("ended spans = %d; want 1", len(spans))
			}
			if got := trace.SpanContextFromContext(base.got.Context()); got.SpanID() != spans[0].SpanContext().SpanID() {
				t.Errorf("base's request context holds span %v; want the client span %v", got.SpanID(), spans[0].SpanContext().SpanID())
			}
			if req.Context() != ctx {
				t.Errorf("the caller's request was given another context")
			}
		})
	}
}

func TestTransportNilResponse(t *testing.T) {
	rec, _, rt := newTestTransport(t, roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil }), LegSend)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://signal-api/v2/send", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.RoundTrip(req); err == nil {
		t.Fatal("RoundTrip of a nil response: no error")
	}
	if spans := rec.Ended(); len(spans) != 1 || spans[0].Status().Code != codes.Error {
		t.Errorf("ended spans = %d; want 1 with status error", len(spans))
	}
}

func TestTransportReadError(t *testing.T) {
	errRead := errors.New("connection reset")
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Body: io.NopCloser(io.MultiReader(strings.NewReader("x"), errReader{errRead})), Request: r}, nil
	})
	rec, _, rt := newTestTransport(t, base, LegUpstream)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://example.org/", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(res.Body); !errors.Is(err, errRead) {
		t.Fatalf("read error = %v; want %v", err, errRead)
	}
	_ = res.Body.Close()
	spans := rec.Ended()
	if len(spans) != 1 {
		t.Fatalf("ended spans = %d; want 1", len(spans))
	}
	if st := spans[0].Status(); st.Code != codes.Error || st.Description != errRead.Error() {
		t.Errorf("status = %+v; want error %q", st, errRead)
	}
	if got := stringAttr(spans[0], "error.type"); got != "*errors.errorString" {
		t.Errorf("error.type = %q; want *errors.errorString", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }
