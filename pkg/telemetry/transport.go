package telemetry

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// NewTransport wraps base (http.DefaultTransport when nil) so that every
// request is a client span of tp (the global provider when nil), carrying
// AttrLeg = leg. Spans are named "GET api.thecatapi.com" (method and host)
// for upstream calls and "POST /v2/send" (method and redacted path) for
// LegSend and LegTyping, the REST API's calls. They carry the HTTP client attributes of the semantic
// conventions, with url.full in RedactURL's form, so API keys and search
// terms in a query never reach a span. No trace context is injected into
// requests: frames are roots, and third-party APIs have no use for our
// trace ids; the hooks' client alone puts Propagate under it.
//
// The span ends when the response body is read to EOF or closed, so callers
// must always close it; a failed round trip ends it at once.
func NewTransport(base http.RoundTripper, tp trace.TracerProvider, leg string) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	return &clientTransport{
		next:   base,
		tracer: tp.Tracer(HTTPTracerName),
		name:   spanNameFormatter(leg),
		start: []trace.SpanStartOption{
			trace.WithSpanKind(trace.SpanKindClient),
			trace.WithAttributes(AttrLeg.String(leg)),
		},
	}
}

// clientTransport makes the client span of each request it passes to next.
type clientTransport struct {
	next   http.RoundTripper
	tracer trace.Tracer
	name   func(string, *http.Request) string
	start  []trace.SpanStartOption // Kind and leg: the same for every span.
}

// RoundTrip starts the request's client span, sends the request with the
// span in its context, and hands the span to the response body to end.
func (t *clientTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, span := t.tracer.Start(r.Context(), t.name("", r), t.start...)
	res, err := t.next.RoundTrip(r.WithContext(ctx))
	if err == nil && res == nil {
		err = fmt.Errorf("http: RoundTripper %T returned a nil *Response with a nil error", t.next)
	}
	if err != nil {
		if span.IsRecording() {
			span.SetAttributes(append(requestAttrs(r), semconv.ErrorType(err))...)
		}
		span.SetStatus(codes.Error, err.Error())
		span.End()
		return res, err
	}
	if span.IsRecording() {
		span.SetAttributes(responseAttrs(requestAttrs(r), res)...)
	}
	if code, desc := httpStatus(res.StatusCode); code == codes.Error {
		span.SetStatus(code, desc)
	}
	if res.Body == nil {
		res.Body = http.NoBody
	}
	res.Body = &spanBody{ReadCloser: res.Body, span: span}
	return res, nil
}

// spanNameFormatter names client spans by host, or by path for LegSend and
// LegTyping, where the host is always the REST API.
func spanNameFormatter(leg string) func(string, *http.Request) string {
	return func(_ string, r *http.Request) string {
		if leg == LegSend || leg == LegTyping {
			return r.Method + " " + redactPath(r.URL.Path)
		}
		return r.Method + " " + requestHost(r)
	}
}

// requestHost is the host (and port) a request goes to.
func requestHost(r *http.Request) string {
	if r.URL.Host != "" {
		return r.URL.Host
	}
	return r.Host
}

// requestAttrs returns the request's attributes: http.request.method (with
// http.request.method_original when the method is not written as one of the
// standard set), url.full (redacted), server.address and, when it is not
// the scheme's default, server.port. The slice has room for responseAttrs.
func requestAttrs(r *http.Request) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 8)
	switch upper := strings.ToUpper(r.Method); {
	case isStandardMethod(r.Method):
		attrs = append(attrs, semconv.HTTPRequestMethodKey.String(r.Method))
	case isStandardMethod(upper):
		attrs = append(attrs, semconv.HTTPRequestMethodKey.String(upper), semconv.HTTPRequestMethodOriginal(r.Method))
	case r.Method == "":
		attrs = append(attrs, semconv.HTTPRequestMethodOther)
	default:
		attrs = append(attrs, semconv.HTTPRequestMethodOther, semconv.HTTPRequestMethodOriginal(r.Method))
	}
	addr, port := splitHostPort(requestHost(r))
	attrs = append(attrs, semconv.URLFull(RedactURL(r.URL)), semconv.ServerAddress(addr))
	if port > 0 && port != defaultPort(r.URL.Scheme) {
		attrs = append(attrs, semconv.ServerPort(port))
	}
	return attrs
}

// responseAttrs appends the response's attributes to attrs:
// http.response.status_code, error.type (the status code) for a status that
// is an error, and network.protocol.version.
func responseAttrs(attrs []attribute.KeyValue, res *http.Response) []attribute.KeyValue {
	if res.StatusCode > 0 {
		attrs = append(attrs, semconv.HTTPResponseStatusCode(res.StatusCode))
	}
	if res.StatusCode < 100 || res.StatusCode >= 400 {
		attrs = append(attrs, semconv.ErrorTypeKey.String(strconv.Itoa(res.StatusCode)))
	}
	if _, version, ok := strings.Cut(res.Proto, "/"); ok && version != "" {
		attrs = append(attrs, semconv.NetworkProtocolVersion(version))
	}
	return attrs
}

// httpStatus is the span status of a response's status code: an error for
// 4xx and 5xx, with a description for a code that is no HTTP status.
func httpStatus(code int) (codes.Code, string) {
	switch {
	case code < 100 || code >= 600:
		return codes.Error, fmt.Sprintf("Invalid HTTP status code %d", code)
	case code >= 400:
		return codes.Error, ""
	default:
		return codes.Unset, ""
	}
}

// isStandardMethod reports whether m is one of the methods of RFC 9110 and
// PATCH, the values http.request.method may take besides _OTHER.
func isStandardMethod(m string) bool {
	switch m {
	case http.MethodConnect, http.MethodDelete, http.MethodGet, http.MethodHead, http.MethodOptions,
		http.MethodPatch, http.MethodPost, http.MethodPut, http.MethodTrace:
		return true
	}
	return false
}

// splitHostPort splits a request's host into the host without brackets and
// the port, -1 when there is none or it is no port number.
func splitHostPort(hostport string) (string, int) {
	u := url.URL{Host: hostport}
	port, err := strconv.ParseUint(u.Port(), 10, 16)
	if err != nil {
		return u.Hostname(), -1
	}
	return u.Hostname(), int(port)
}

// defaultPort is the port a URL of scheme has when it names none.
func defaultPort(scheme string) int {
	if scheme == "https" {
		return 443
	}
	return 80
}

// spanBody is a response body that ends the request's client span, once,
// at EOF or at Close, whichever comes first. A read error other than EOF
// marks the span as failed and leaves it to Close to end.
type spanBody struct {
	io.ReadCloser
	span  trace.Span
	ended atomic.Bool
}

// Read reads from the body and ends the span at EOF.
func (b *spanBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.end()
	case err != nil:
		b.span.SetAttributes(semconv.ErrorType(err))
		b.span.SetStatus(codes.Error, err.Error())
	}
	return n, err
}

// Close ends the span, then closes the body.
func (b *spanBody) Close() error {
	b.end()
	return b.ReadCloser.Close()
}

func (b *spanBody) end() {
	if b.ended.CompareAndSwap(false, true) {
		b.span.End()
	}
}
