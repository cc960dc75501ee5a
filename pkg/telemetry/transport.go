package telemetry

import (
	"net/http"
	"net/url"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// NewTransport wraps base (http.DefaultTransport when nil) so that every
// request is a client span of tp carrying AttrLeg = leg. Spans are named
// "GET api.thecatapi.com" (method and host) for upstream calls and
// "POST /v2/send" (method and redacted path) for LegSend. The url.full
// attribute that otelhttp records verbatim, query and all, is replaced by
// RedactURL's form, so API keys and search terms in a query never reach a
// span. No trace context is injected into requests: frames are roots, and
// third-party APIs have no use for our trace ids.
//
// As with any otelhttp transport, the span ends only when the response body
// is read to EOF or closed, so callers must always close it.
func NewTransport(base http.RoundTripper, tp trace.TracerProvider, leg string) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return otelhttp.NewTransport(redactingTransport{next: base},
		otelhttp.WithTracerProvider(tp),
		otelhttp.WithPropagators(propagation.NewCompositeTextMapPropagator()),
		otelhttp.WithSpanNameFormatter(spanNameFormatter(leg)),
		otelhttp.WithSpanOptions(trace.WithAttributes(AttrLeg.String(leg))),
	)
}

// spanNameFormatter names client spans by host, or by path for LegSend
// where the host is always the REST API.
func spanNameFormatter(leg string) func(string, *http.Request) string {
	return func(_ string, r *http.Request) string {
		if leg == LegSend {
			return r.Method + " " + redactPath(r.URL.Path)
		}
		host := r.URL.Host
		if host == "" {
			host = r.Host
		}
		return r.Method + " " + host
	}
}

// redactingTransport runs inside the otelhttp transport, after it has set
// the span's attributes, and overwrites url.full with the redacted URL.
type redactingTransport struct {
	next http.RoundTripper
}

// RoundTrip redacts url.full on the request's span and sends the request.
// otelhttp recorded the URL as it is, without its user info; url.full is set
// again only where redaction changes that (a query, an identifier in the
// path), since a second url.full copies the span's attributes: for every
// POST /v2/send, which has neither, that copy was wasted.
func (t redactingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if span := trace.SpanFromContext(r.Context()); span.IsRecording() {
		if red := RedactURL(r.URL); red != withoutUser(r.URL) {
			span.SetAttributes(semconv.URLFull(red))
		}
	}
	return t.next.RoundTrip(r)
}

// withoutUser is u as otelhttp records it in url.full: without user info.
func withoutUser(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	return c.String()
}
