package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace/noop"

	"signal-bot/pkg/httpapi"
	"signal-bot/pkg/pipeline"
)

// webhookPipeline is a pipeline that is never run: what the webhook offers stays queued,
// so Stats shows exactly what was accepted and dropped.
func webhookPipeline(t *testing.T, depth int) *pipeline.Pipeline[string] {
	t.Helper()
	p := newPipeline(t, depth, rawFrames(func(string) {}))
	t.Cleanup(p.Close)
	return p
}

// rawFrames is a pipeline handler that hands on each frame as it came.
type rawFrames func(raw string)

func (rawFrames) Decode(raw []byte) (string, string)     { return "", string(raw) }
func (h rawFrames) Handle(_ context.Context, raw string) { h(raw) }

func newPipeline(t *testing.T, depth int, h rawFrames) *pipeline.Pipeline[string] {
	t.Helper()
	cfg := pipeline.Config{Limit: 1, QueueDepth: depth, FrameTimeout: time.Minute, SenderQueue: 1 << 10, QueueBytes: 1 << 30}
	return pipeline.New[string](cfg, pipeline.Hooks{}, noop.NewTracerProvider(), h)
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
		{"too big", "POST", "/_webhook?token=s3cret", strings.Repeat(" ", httpapi.WebhookMaxBody+1), 413, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := webhookPipeline(t, 10)
			h := httpapi.NewWebhook(httpapi.WebhookConfig{Pipeline: p, Token: "s3cret"})
			if got := post(t, h, tt.method, tt.target, tt.body); got != tt.wantStatus {
				t.Errorf("status = %d; want %d", got, tt.wantStatus)
			}
			if got := p.Stats().Accepted; got != tt.wantAccepted {
				t.Errorf("accepted = %d; want %d", got, tt.wantAccepted)
			}
		})
	}
}

// The frame handed on is the params object, byte for byte, as the websocket would carry it.
func TestWebhookHandsOnParams(t *testing.T) {
	frames := make(chan string, 2)
	p := newPipeline(t, 2, func(raw string) { frames <- raw })
	done := make(chan struct{})
	go func() { defer close(done); p.Run() }()
	h := httpapi.NewWebhook(httpapi.WebhookConfig{Pipeline: p})
	post(t, h, "POST", "/_webhook", receiveLine)
	post(t, h, "POST", "/_webhook", `{"jsonrpc":"2.0","method":"receive","error":{"code":-1,"message":"boom"}}`)
	p.Close()
	p.Wait(context.Background())
	<-done
	want := []string{`{"envelope":{"timestamp":1},"account":"+48500000001"}`, `{"error":"boom"}`}
	for i, w := range want {
		if got := <-frames; got != w {
			t.Errorf("frame %d = %s; want %s", i, got, w)
		}
	}
}

// A full FIFO answers 503 at once, so the REST API logs the loss, and the drop is counted.
func TestWebhookFullQueue(t *testing.T) {
	p := webhookPipeline(t, 1)
	h := httpapi.NewWebhook(httpapi.WebhookConfig{Pipeline: p})
	for i, want := range []int{200, 503, 503} {
		if got := post(t, h, "POST", "/_webhook", receiveLine); got != want {
			t.Errorf("POST %d = %d; want %d", i, got, want)
		}
	}
	if st := p.Stats(); st.Accepted != 1 || st.Dropped != 2 {
		t.Errorf("accepted %d, dropped %d; want 1 and 2", st.Accepted, st.Dropped)
	}
}

// With Durable set, a frame is answered 200 only once Durable returns: the
// POST waits for the journal's commit. A Durable that fails still answers
// 200 (the frame is queued and will run; the REST API would not retry), and
// a refused frame never waits for the disk.
func TestWebhookWaitsForDurable(t *testing.T) {
	p := webhookPipeline(t, 1)
	release := make(chan error)
	calls := 0
	h := httpapi.NewWebhook(httpapi.WebhookConfig{Pipeline: p, Durable: func(ctx context.Context) error {
		calls++
		select {
		case err := <-release:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}})
	rec := httptest.NewRecorder()
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/_webhook", strings.NewReader(receiveLine)))
	}()
	select {
	case <-answered:
		t.Fatalf("answered %d before the frame was durable", rec.Code)
	case <-time.After(50 * time.Millisecond):
	}
	if st := p.Stats(); st.Accepted != 1 {
		t.Errorf("accepted = %d while waiting for the disk; want 1 (queued first)", st.Accepted)
	}
	release <- errors.New("disk full")
	<-answered
	if rec.Code != 200 {
		t.Errorf("status after a failed Durable = %d; want 200", rec.Code)
	}
	if got := post(t, h, "POST", "/_webhook", receiveLine); got != 503 || calls != 1 {
		t.Errorf("a refused frame: status %d after %d Durable calls; want 503 after 1", got, calls)
	}
}

// Connected follows the probe, and a webhook POST counts as proof of life.
func TestWebhookWatch(t *testing.T) {
	p := webhookPipeline(t, 10)
	h := httpapi.NewWebhook(httpapi.WebhookConfig{Pipeline: p})
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

func TestWebhookMount(t *testing.T) {
	p := webhookPipeline(t, 10)
	h := httpapi.NewWebhook(httpapi.WebhookConfig{Pipeline: p})
	next := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, bad := range []string{"/", "/healthz", "/_selftest", "/_override", "/metrics", "webhook", "/{x}", "/a b"} {
		if err := httpapi.CheckWebhookPath(bad); err == nil {
			t.Errorf("CheckWebhookPath(%q) accepted; want an error", bad)
		}
	}
	if err := httpapi.CheckWebhookPath("/_webhook"); err != nil {
		t.Fatal(err)
	}
	mux := h.Mount("/_webhook", next)
	if got := post(t, mux, "POST", "/_webhook", receiveLine); got != 200 {
		t.Errorf("POST /_webhook = %d; want 200", got)
	}
	if got := post(t, mux, "GET", "/healthz", ""); got != http.StatusTeapot {
		t.Errorf("GET /healthz = %d; want it passed on", got)
	}
}

func TestCheckWebhook(t *testing.T) {
	tests := []struct {
		addr, token string
		wantErr     bool
	}{
		{"127.0.0.1:9923", "", false},
		{"[::1]:9923", "", false},
		{"0.0.0.0:9923", "", true},
		{"0.0.0.0:9923", "t", false},
	}
	for _, tt := range tests {
		if err := httpapi.CheckWebhook(tt.addr, tt.token); (err != nil) != tt.wantErr {
			t.Errorf("CheckWebhook(%q, %q) = %v; want error %v", tt.addr, tt.token, err, tt.wantErr)
		}
	}
}
