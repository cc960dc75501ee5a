package upstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// maxJSONBytes bounds every API reply the clients decode.
const maxJSONBytes = 1 << 20

// get performs a GET of rawURL with the given headers and returns at most
// limit bytes of a 2xx body. Any failure is an *Error carrying op. The
// response body is always closed, which also ends the request's client span.
func get(ctx context.Context, hc *http.Client, op, rawURL string, hdr http.Header, limit int64) ([]byte, error) {
	fail := func(status int, err error) error {
		return &Error{Op: op, URL: redactURL(rawURL), Status: status, Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fail(0, err)
	}
	for k, vs := range hdr {
		req.Header[k] = vs
	}
	res, err := hc.Do(req)
	if err != nil {
		// *url.Error repeats the method and URL that Error already carries;
		// keep only its cause (a context or net error, still matchable).
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, fail(0, err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		// Read a little so a short error body does not cost the connection.
		_, _ = io.CopyN(io.Discard, res.Body, 4<<10)
		return nil, fail(res.StatusCode, fmt.Errorf("%w %d", ErrStatus, res.StatusCode))
	}
	if res.ContentLength > limit {
		return nil, fail(res.StatusCode, fmt.Errorf("%w: content-length %d > %d", ErrTooBig, res.ContentLength, limit))
	}
	body, err := readLimited(ctx, res.Body, res.ContentLength, limit)
	if err != nil {
		return nil, fail(res.StatusCode, err)
	}
	return body, nil
}

// readLimited reads r to EOF but fails with ErrTooBig as soon as more than
// limit bytes arrive, so memory stays bounded by limit whatever the sender
// does. sizeHint, when positive, presizes the buffer.
func readLimited(ctx context.Context, r io.Reader, sizeHint, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	if sizeHint > 0 && sizeHint <= limit {
		buf.Grow(int(sizeHint) + bytes.MinRead)
	}
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			return nil, fmt.Errorf("read body: %w (%w)", cerr, err)
		}
		return nil, fmt.Errorf("read body: %w", err)
	}
	if n > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooBig, limit)
	}
	return buf.Bytes(), nil
}
