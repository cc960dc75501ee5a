package telemetry

import (
	"net/http"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Propagate wraps next so that each request carries the W3C trace context
// (traceparent, and tracestate when there is one) of the span in its
// context: under NewTransport, the request's own client span, so the
// service's spans become its children. Only the hooks' client uses it: a
// hook is the operator's own service, which may join the frame's trace;
// third-party APIs get no trace ids.
func Propagate(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return propagating{next: next}
}

type propagating struct{ next http.RoundTripper }

// RoundTrip injects the context into a copy of r (a RoundTripper must not
// change its request) and sends that.
func (p propagating) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return p.next.RoundTrip(r)
	}
	out := r.Clone(ctx)
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(out.Header))
	return p.next.RoundTrip(out)
}
