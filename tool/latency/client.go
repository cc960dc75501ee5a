package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"signal-bot/pkg/telemetry"
)

// client calls the bot's /_selftest and /_override endpoints.
type client struct {
	base  string
	token string
	http  *http.Client
}

// newClient returns a client whose connection pool holds conns idle
// connections, so an open loop reuses them instead of dialling per request.
// Close it with close.
func newClient(base, token string, conns int) *client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = conns, conns
	return &client{base: base, token: token, http: &http.Client{Transport: tr}}
}

// close drops the idle connections (and their goroutines).
func (c *client) close() { c.http.CloseIdleConnections() }

// timing is the bot's timing block of one served frame (docs/timing.md, the
// same type /_selftest encodes), plus the tool's own HTTP round trip.
type timing struct {
	telemetry.Block
	HTTPMS float64 `json:"-"`
}

// statusError is a non-2xx answer from the bot, with its {"error": …} text.
type statusError struct {
	op         string
	status     int
	msg        string
	traceID    string        // set when a frame was made (a cooldown 429 has one)
	retryAfter time.Duration // from a Retry-After header in seconds; 0 when none
}

func (e *statusError) Error() string {
	return fmt.Sprintf("%s: %d %s: %s", e.op, e.status, http.StatusText(e.status), e.msg)
}

// selftest sends text to group once, from the bot's synthetic identity
// sender, and returns the frame's timing block.
func (c *client) selftest(ctx context.Context, group, text string, sender int) (timing, error) {
	var t timing
	body := map[string]any{"group": group, "text": text}
	if sender > 0 {
		body["sender"] = sender
	}
	err := c.do(ctx, http.MethodPost, "/_selftest", body, &t)
	return t, err
}

// override is the answer of PUT /_override.
type override struct {
	Command string    `json:"command"`
	Active  bool      `json:"active"`
	Until   time.Time `json:"until"`
}

// putOverride switches command's cooldown off in group for ttl.
func (c *client) putOverride(ctx context.Context, group, command string, ttl time.Duration) (override, error) {
	var ov override
	body := map[string]any{"group": group, "command": command, "ttl_s": ttl.Seconds()}
	err := c.do(ctx, http.MethodPut, "/_override", body, &ov)
	return ov, err
}

// deleteOverride puts command's cooldown in group back.
func (c *client) deleteOverride(ctx context.Context, group, command string) error {
	return c.do(ctx, http.MethodDelete, "/_override", map[string]string{"group": group, "command": command}, nil)
}

// do sends body as JSON and decodes a 2xx answer into out (nil: discard).
func (c *client) do(ctx context.Context, method, path string, body, out any) error {
	op := method + " " + path
	b, err := json.Marshal(body)
	if err != nil {
		return fmt.Errorf("%s: encode: %w", op, err)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return fmt.Errorf("%s: read answer: %w", op, err)
	}
	if res.StatusCode/100 != 2 {
		msg, traceID := errorText(data)
		secs, _ := strconv.Atoi(res.Header.Get("Retry-After"))
		return &statusError{op: op, status: res.StatusCode, msg: msg, traceID: traceID, retryAfter: time.Duration(secs) * time.Second}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: decode answer: %w", op, err)
	}
	return nil
}

// errorText is the "error" and "trace_id" of a JSON error body, or the body
// itself.
func errorText(data []byte) (msg, traceID string) {
	var e struct {
		Error   string `json:"error"`
		TraceID string `json:"trace_id"`
	}
	if json.Unmarshal(data, &e) == nil && e.Error != "" {
		return e.Error, e.TraceID
	}
	s := strings.TrimSpace(string(data))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		s = "(empty body)"
	}
	return s, ""
}

// statusOf is the HTTP status of err, or 0 when the bot never answered.
func statusOf(err error) int {
	var se *statusError
	if errors.As(err, &se) {
		return se.status
	}
	return 0
}

// throttled tells a refusal by the bot's rate limit on the selftest endpoints
// (SELFTEST_RATE): a 429 made before any frame, so without a trace id, unlike
// the 429 of a command cooling down.
func throttled(err error) bool {
	var se *statusError
	return errors.As(err, &se) && se.status == http.StatusTooManyRequests && se.traceID == ""
}
