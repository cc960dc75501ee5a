package upstream

import (
	"context"
	"errors"
	"net"
	"strings"

	"signal-bot/pkg/telemetry"
)

// Sentinel errors wrapped by *Error. Test for them with errors.Is.
var (
	// ErrStatus means the upstream answered with a non-2xx HTTP status; the
	// code is in Error.Status.
	ErrStatus = errors.New("unexpected http status")
	// ErrBadJSON means an API reply could not be decoded or did not have the
	// documented shape.
	ErrBadJSON = errors.New("malformed api response")
	// ErrAPI means the API decoded fine but reported an error of its own
	// (a MediaWiki "error" object).
	ErrAPI = errors.New("api error")
	// ErrNoImages means the API answered but offered no usable picture.
	ErrNoImages = errors.New("no usable images")
	// ErrTooBig means a body exceeded its read limit; it is never truncated.
	ErrTooBig = errors.New("body exceeds size limit")
	// ErrNotImage means a downloaded body is not a JPEG, PNG, GIF or WebP
	// image whose header decodes.
	ErrNotImage = errors.New("not a supported image")
)

// Error describes a failed upstream operation. Err holds the cause: one of the
// sentinel errors above, a context error, or a transport error.
type Error struct {
	// Op names the operation, such as "thecatapi search" or "commons download".
	Op string
	// URL is the requested URL as telemetry.RedactRawURL gives it: no credentials, no query values.
	URL string
	// Status is the HTTP status code, or 0 when no response was received.
	Status int
	// Err is the underlying cause.
	Err error
}

// Error returns "op url: cause".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	if e.URL != "" {
		b.WriteString(" ")
		b.WriteString(e.URL)
	}
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("unknown error")
	}
	return b.String()
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Timeout reports whether the operation failed because a deadline passed,
// either the caller's context deadline or a transport timeout.
func (e *Error) Timeout() bool {
	if errors.Is(e.Err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(e.Err, &ne) && ne.Timeout()
}

// redactURL is the one redaction of URLs, telemetry's: every query value and
// every identifying path segment hidden, so an error that reaches a log line
// or a span carries no API key and no search term.
func redactURL(raw string) string { return telemetry.RedactRawURL(raw) }
