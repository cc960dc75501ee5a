package signalapi_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/signalapi"
)

// holdIntake is an Intake that says when an Offer has begun (entered) and
// holds it until release is closed, then answers with err.
type holdIntake struct {
	entered chan struct{}
	release chan struct{}
	err     error
}

func (q *holdIntake) Offer(context.Context, []byte, time.Time, signalapi.Via) (trace.TraceID, error) {
	if q.entered != nil {
		q.entered <- struct{}{}
		<-q.release
	}
	return trace.TraceID{}, q.err
}

// countingBody is a request body that counts the bytes read from it.
type countingBody struct {
	r    io.Reader
	read atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.read.Add(int64(n))
	return n, err
}

// lineOf is a receive line of exactly n bytes (its text padded).
func lineOf(n int) string {
	head, tail := `{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"timestamp":1,"dataMessage":{"message":"`, `"}},"account":"+48500000001"}}`
	return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
}

// The bodies being read and offered hold at most WEBHOOK_READ_BYTES: a POST
// that does not fit while another holds the budget is answered 503 at once,
// its body unread; once the first is answered the budget is free again. The
// refusals are counted and logged a line a minute with the count.
func TestWebhookReadBudget(t *testing.T) {
	var logs testkit.SyncBuffer
	q := &holdIntake{entered: make(chan struct{}), release: make(chan struct{})}
	h := signalapi.NewWebhook(q, signalapi.WebhookConfig{ReadBytes: signalapi.WebhookMaxBody}, slog.New(slog.NewTextHandler(&logs, nil)))
	first := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(first, httptest.NewRequest("POST", "/_webhook", strings.NewReader(lineOf(signalapi.WebhookMaxBody))))
	}()
	<-q.entered // the first holds the whole budget, in Offer
	for i := range 3 {
		body := &countingBody{r: strings.NewReader(receiveLine)}
		req := httptest.NewRequest("POST", "/_webhook", body)
		req.ContentLength = int64(len(receiveLine))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusServiceUnavailable || body.read.Load() != 0 {
			t.Errorf("POST %d while the budget is held: %d, %d bytes read; want 503 and none read", i, rec.Code, body.read.Load())
		}
	}
	close(q.release)
	<-done
	if first.Code != http.StatusOK {
		t.Errorf("the first POST = %d; want 200", first.Code)
	}
	q.entered = nil
	if got := post(t, h, "POST", "/_webhook", receiveLine); got != http.StatusOK {
		t.Errorf("POST after the first was answered = %d; want 200: the budget is given back", got)
	}
	if got := h.Stats().Busy; got != 3 {
		t.Errorf("Stats().Busy = %d; want 3", got)
	}
	if n := strings.Count(logs.String(), "webhook POST refused unread"); n != 1 {
		t.Errorf("%d lines for 3 refusals; want 1 (a line a minute):\n%s", n, logs.String())
	}
}

// A frame the bot chose not to take (ErrDeclined: SENDER_QUEUE, a sender
// id over the bound) is answered 200: the REST API does not retry, and a
// 503 would only have it log an error per message. A frame the bot could
// not take is 503.
func TestWebhookDeclinedIs200(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{fmt.Errorf("%w: sender_too_long", signalapi.ErrDeclined), http.StatusOK},
		{fmt.Errorf("%w: the sender has SENDER_QUEUE frames waiting", signalapi.ErrDeclined), http.StatusOK},
		{errFull, http.StatusServiceUnavailable},
	}
	for _, tt := range tests {
		h := signalapi.NewWebhook(&holdIntake{err: tt.err}, signalapi.WebhookConfig{}, nil)
		if got := post(t, h, "POST", "/_webhook", receiveLine); got != tt.want {
			t.Errorf("Offer error %v: status %d; want %d", tt.err, got, tt.want)
		}
	}
}

// A missing or wrong token is logged, once a minute each with the count,
// never the token; every refusal is counted.
func TestWebhookTokenFailuresLogged(t *testing.T) {
	var logs testkit.SyncBuffer
	h := signalapi.NewWebhook(&queueIntake{depth: 10}, signalapi.WebhookConfig{Token: "s3cret"}, slog.New(slog.NewTextHandler(&logs, nil)))
	for range 3 {
		if got := post(t, h, "POST", "/_webhook?token=guess-1", receiveLine); got != http.StatusForbidden {
			t.Fatalf("wrong token: %d; want 403", got)
		}
	}
	for range 2 {
		if got := post(t, h, "POST", "/_webhook", receiveLine); got != http.StatusUnauthorized {
			t.Fatalf("no token: %d; want 401", got)
		}
	}
	l := logs.String()
	if strings.Count(l, "webhook POST refused: wrong token") != 1 || strings.Count(l, "webhook POST refused: missing ?token=") != 1 || strings.Contains(l, "guess-1") {
		t.Errorf("want one line for the wrong token and one for the missing one, without the token:\n%s", l)
	}
	if got := h.Stats().Denied; got != 5 {
		t.Errorf("Stats().Denied = %d; want 5", got)
	}
}
