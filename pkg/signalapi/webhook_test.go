package signalapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/signalapi"
)

// queueIntake is an Intake that reads each webhook line as the bot's intake
// does (signalapi.DecodeLine: a line without a frame is refused with its
// error) and keeps up to depth frames, never running them; beyond that it
// refuses, as a full queue does. Its counts show exactly what was accepted
// and dropped. block, when set, holds every Offer until it is closed.
type queueIntake struct {
	mu                sync.Mutex
	depth             int
	raws              [][]byte
	vias              []signalapi.Via
	accepted, dropped int64
	block             chan struct{}
}

var errFull = errors.New("intake queue full")

func (q *queueIntake) Offer(_ context.Context, raw []byte, _ time.Time, via signalapi.Via) (trace.TraceID, error) {
	if q.block != nil {
		<-q.block
	}
	if _, err := signalapi.DecodeLine(raw); errors.Is(err, signalapi.ErrNotReceive) || errors.Is(err, signalapi.ErrBadLine) {
		return trace.TraceID{}, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.raws) >= q.depth {
		q.dropped++
		return trace.TraceID{}, errFull
	}
	q.raws, q.vias = append(q.raws, raw), append(q.vias, via)
	q.accepted++
	return trace.TraceID{}, nil
}

func (q *queueIntake) stats() (accepted, dropped int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.accepted, q.dropped
}

// post sends body to the handler and returns the status.
func post(t *testing.T, h http.Handler, method, target, body string) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, target, strings.NewReader(body)))
	return rec.Code
}

const receiveLine = `{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"timestamp":1},"account":"+48500000001"}}` + "\n"

func TestWebhookStatuses(t *testing.T) {
	tests := []struct {
		name, method, target, body string
		wantStatus                 int
		wantAccepted               int64
	}{
		{"receive line", "POST", "/_webhook?token=s3cret", receiveLine, 200, 1},
		{"error notification", "POST", "/_webhook?token=s3cret", `{"jsonrpc":"2.0","method":"receive","error":{"code":-1,"message":"boom"}}`, 200, 1},
		{"other notification ignored", "POST", "/_webhook?token=s3cret", `{"jsonrpc":"2.0","method":"receiveSomething","params":{}}`, 200, 0},
		{"response line ignored", "POST", "/_webhook?token=s3cret", `{"jsonrpc":"2.0","id":"1","result":{}}`, 200, 0},
		{"no token", "POST", "/_webhook", receiveLine, 401, 0},
		{"two tokens", "POST", "/_webhook?token=s3cret&token=s3cret", receiveLine, 401, 0},
		{"wrong token", "POST", "/_webhook?token=nope", receiveLine, 403, 0},
		{"wrong method", "GET", "/_webhook?token=s3cret", "", 405, 0},
		{"not json", "POST", "/_webhook?token=s3cret", "!pomoc", 400, 0},
		{"receive without params", "POST", "/_webhook?token=s3cret", `{"jsonrpc":"2.0","method":"receive"}`, 400, 0},
		{"bare frame, no JSON-RPC line", "POST", "/_webhook?token=s3cret", `{"envelope":{"timestamp":1},"account":"+48500000001"}`, 400, 0},
		{"jsonrpc 1.0", "POST", "/_webhook?token=s3cret", `{"jsonrpc":"1.0","method":"receive","params":{}}`, 400, 0},
		{"too big", "POST", "/_webhook?token=s3cret", strings.Repeat(" ", signalapi.WebhookMaxBody+1), 413, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &queueIntake{depth: 10}
			h := signalapi.NewWebhook(q, signalapi.WebhookConfig{Token: "s3cret"}, nil)
			if got := post(t, h, tt.method, tt.target, tt.body); got != tt.wantStatus {
				t.Errorf("status = %d; want %d", got, tt.wantStatus)
			}
			if got, _ := q.stats(); got != tt.wantAccepted {
				t.Errorf("accepted = %d; want %d", got, tt.wantAccepted)
			}
		})
	}
}

// The webhook hands on the line as it came, byte for byte, marked
// ViaWebhook, and the line reads (DecodeLine, in one pass) as the frame the
// websocket would carry: its params object, or the REST API's {"error":…}.
func TestWebhookHandsOnTheLine(t *testing.T) {
	errLine := `{"jsonrpc":"2.0","method":"receive","error":{"code":-1,"message":"boom"}}`
	q := &queueIntake{depth: 2}
	h := signalapi.NewWebhook(q, signalapi.WebhookConfig{}, nil)
	post(t, h, "POST", "/_webhook", receiveLine)
	post(t, h, "POST", "/_webhook", errLine)
	tests := []struct{ line, wsFrame string }{
		{receiveLine, `{"envelope":{"timestamp":1},"account":"+48500000001"}`},
		{errLine, `{"error":"boom"}`},
	}
	if len(q.raws) != len(tests) {
		t.Fatalf("%d frames handed on; want %d", len(q.raws), len(tests))
	}
	for i, tt := range tests {
		if string(q.raws[i]) != tt.line || q.vias[i] != signalapi.ViaWebhook {
			t.Errorf("frame %d = %s via %v; want %s via webhook", i, q.raws[i], q.vias[i], tt.line)
		}
		got, err := signalapi.DecodeLine(q.raws[i])
		if err != nil {
			t.Fatalf("DecodeLine(%s): %v", q.raws[i], err)
		}
		want, err := signalapi.DecodeFrame([]byte(tt.wsFrame))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			t.Errorf("frame %d reads as %s; want %s, as the websocket's %s", i, g, tt.wsFrame, tt.wsFrame)
		}
	}
}

// A full FIFO answers 503 at once, so the REST API logs the loss, and the drop is counted.
func TestWebhookFullQueue(t *testing.T) {
	q := &queueIntake{depth: 1}
	h := signalapi.NewWebhook(q, signalapi.WebhookConfig{}, nil)
	for i, want := range []int{200, 503, 503} {
		if got := post(t, h, "POST", "/_webhook", receiveLine); got != want {
			t.Errorf("POST %d = %d; want %d", i, got, want)
		}
	}
	if accepted, dropped := q.stats(); accepted != 1 || dropped != 2 {
		t.Errorf("accepted %d, dropped %d; want 1 and 2", accepted, dropped)
	}
}

// A POST is answered only once the intake's Offer has returned: the intake
// waits there for the frame's journal entry to be on disk (the bot's
// TestIntakeWebhookWaitsForTheDisk), so a 200 means taken.
func TestWebhookAnswersOnceOffered(t *testing.T) {
	q := &queueIntake{depth: 1, block: make(chan struct{})}
	h := signalapi.NewWebhook(q, signalapi.WebhookConfig{}, nil)
	rec := httptest.NewRecorder()
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/_webhook", strings.NewReader(receiveLine)))
	}()
	select {
	case <-answered:
		t.Fatalf("answered %d before Offer returned", rec.Code)
	case <-time.After(50 * time.Millisecond):
	}
	close(q.block)
	<-answered
	if accepted, _ := q.stats(); rec.Code != 200 || accepted != 1 {
		t.Errorf("status %d, accepted %d once Offer returned; want 200 and 1", rec.Code, accepted)
	}
}

// Connected follows the probe, and a webhook POST counts as proof of life.
func TestWebhookWatch(t *testing.T) {
	h := signalapi.NewWebhook(&queueIntake{depth: 10}, signalapi.WebhookConfig{}, nil)
	results := []error{errors.New("down"), nil, errors.New("down")}
	called, proceed := make(chan int), make(chan struct{})
	n := 0
	probe := func(ctx context.Context) error {
		select {
		case called <- n:
		case <-ctx.Done():
			return ctx.Err()
		}
		select { // the test looks at Connected while this probe is under way
		case <-proceed:
		case <-ctx.Done():
			return ctx.Err()
		}
		err := results[min(n, len(results)-1)]
		n++
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.Watch(ctx, time.Millisecond, probe) }()
	steps := []struct {
		post bool // a webhook POST arrives before the check
		want bool // Connected once the previous probe's result is in
	}{
		{false, true},  // before any probe: the REST API answered at startup
		{false, false}, // probe 0 failed
		{false, true},  // probe 1 succeeded
		{true, true},   // probe 2 failed, but a POST came after it
	}
	for i, st := range steps {
		<-called // probe i runs: probe i-1's result is stored
		if st.post {
			post(t, h, "POST", "/_webhook", receiveLine)
		}
		if got := h.Connected(); got != st.want {
			t.Errorf("step %d: Connected = %v; want %v", i, got, st.want)
		}
		if i < len(steps)-1 {
			proceed <- struct{}{}
		}
	}
	cancel()
	<-done
}
