package upstream

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestErrorMessageAndUnwrap(t *testing.T) {
	e := &Error{Op: "thecatapi search", URL: "https://x/y", Status: 503, Err: fmt.Errorf("%w 503", ErrStatus)}
	if got, want := e.Error(), "thecatapi search https://x/y: unexpected http status 503"; got != want {
		t.Errorf("Error() = %q; want %q", got, want)
	}
	if !errors.Is(e, ErrStatus) || e.Timeout() {
		t.Errorf("Is(ErrStatus)=%v Timeout()=%v; want true, false", errors.Is(e, ErrStatus), e.Timeout())
	}
	d := &Error{Op: "commons query", Err: fmt.Errorf("read body: %w", context.DeadlineExceeded)}
	if !d.Timeout() {
		t.Errorf("Timeout() of a deadline error = false; want true")
	}
}
