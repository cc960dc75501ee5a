package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// stubRoundTripper answers every request in memory with 201 and a short
// body, so that a benchmark measures the transport around it.
type stubRoundTripper struct{}

func (stubRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		_ = r.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusCreated, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"timestamp":"1"}`)), Request: r,
	}, nil
}

// BenchmarkTransport is one POST /v2/send through NewTransport, as the bot
// sends a reply: a client span under a handler span of a recording
// provider, the body read to EOF and closed. "stub" answers in memory, so
// it is the transport alone; "httptest" goes through net/http and loopback.
func BenchmarkTransport(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"timestamp":"1"}`)
	}))
	b.Cleanup(srv.Close)
	for _, bc := range []struct {
		name string
		base http.RoundTripper
	}{
		{name: "stub", base: stubRoundTripper{}},
		{name: "httptest", base: srv.Client().Transport},
	} {
		b.Run(bc.name, func(b *testing.B) {
			tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(recordAll{sdktrace.AlwaysSample()}))
			b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			client := &http.Client{Transport: NewTransport(bc.base, tp, LegSend)}
			ctx, parent := tp.Tracer(TracerName).Start(context.Background(), SpanHandler)
			defer parent.End()
			b.ReportAllocs()
			for b.Loop() {
				benchSend(ctx, b, client, srv.URL+"/v2/send")
			}
		})
	}
}

func benchSend(ctx context.Context, b *testing.B, client *http.Client, url string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"message":"pong"}`))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	_ = res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		b.Fatalf("status %d; want 201", res.StatusCode)
	}
}
