package telemetry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// Under NewTransport, Propagate sends the client span's own context: the
// service's spans hang under the upstream leg. Without a span it sends none.
func TestPropagateTheClientSpan(t *testing.T) {
	got := make(chan http.Header, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got <- r.Header.Clone() }))
	defer srv.Close()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	hc := &http.Client{Transport: NewTransport(Propagate(nil), tp, LegUpstream)}
	ctx, root := tp.Tracer("t").Start(context.Background(), SpanFrame)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, nil)
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	root.End()
	h := <-got
	if req.Header.Get("traceparent") != "" {
		t.Error("the caller's request was changed")
	}
	var client sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.SpanKind() == trace.SpanKindClient {
			client = s
		}
	}
	sc := client.SpanContext()
	want := "00-" + sc.TraceID().String() + "-" + sc.SpanID().String() + "-01"
	if tp := h.Get("traceparent"); tp != want {
		t.Errorf("traceparent = %q; want the client span's %q", tp, want)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL, nil)
	res, err = (&http.Client{Transport: Propagate(nil)}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if h := <-got; h.Get("traceparent") != "" {
		t.Errorf("traceparent %q without a span", h.Get("traceparent"))
	}
}
