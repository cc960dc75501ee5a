package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"go.uber.org/goleak"

	"signal-bot/pkg/telemetry"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// handler is the tests' Handler: the message is the raw frame as a string,
// and the key its first byte, or none when the frame starts with '-' (a frame
// that takes no turn).
type handler func(ctx context.Context, msg string)

func (h handler) Decode(raw []byte) (string, string) {
	if len(raw) == 0 || raw[0] == '-' {
		return "", string(raw)
	}
	return string(raw[:1]), string(raw)
}

func (h handler) Handle(ctx context.Context, msg string) { h(ctx, msg) }

// testConfig is a complete Config with limit slots and a FIFO of depth; the
// sizes the tests do not care about are set high enough not to matter.
func testConfig(limit, depth int) Config {
	return Config{Limit: limit, QueueDepth: depth, FrameTimeout: time.Minute, SenderQueue: 1 << 10, QueueBytes: 1 << 30}
}

func newPipeline(t *testing.T, cfg Config, tp trace.TracerProvider, h handler) *Pipeline[string] {
	t.Helper()
	return New[string](cfg, Hooks{}, tp, h)
}

func start(t *testing.T, cfg Config, h handler) *Pipeline[string] {
	t.Helper()
	return startWith(t, cfg, noop.NewTracerProvider(), h)
}

func startWith(t *testing.T, cfg Config, tp trace.TracerProvider, h handler) *Pipeline[string] {
	t.Helper()
	p := newPipeline(t, cfg, tp, h)
	go p.Run()
	t.Cleanup(func() {
		p.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p.Wait(ctx)
	})
	return p
}

func offer(t *testing.T, p *Pipeline[string], raw string) {
	t.Helper()
	if _, err := p.Offer([]byte(raw), time.Now(), false); err != nil {
		t.Fatalf("Offer(%s): %v", raw, err)
	}
}

// peak tracks the most tasks seen at once.
type peak struct{ now, max atomic.Int64 }

func (p *peak) enter() {
	n := p.now.Add(1)
	for old := p.max.Load(); n > old && !p.max.CompareAndSwap(old, n); old = p.max.Load() {
	}
}

func (p *peak) leave() { p.now.Add(-1) }

// LIMIT bounds the handlers running with a slot, whether frames take turns or
// not, and whether handlers give their slot up in WaitOutside or not.
func TestLimitNeverExceeded(t *testing.T) {
	const limit, frames = 4, 60
	tests := []struct {
		name    string
		frame   func(i int) string
		outside bool // each handler also waits in WaitOutside
	}{
		{"no turns", func(i int) string { return fmt.Sprintf("-%02d", i) }, false},
		{"three senders", func(i int) string { return fmt.Sprintf("%c%02d", 'a'+i%3, i) }, false},
		{"many senders", func(i int) string { return fmt.Sprintf("%c%02d", 'a'+i%20, i) }, false},
		{"three senders, waiting outside", func(i int) string { return fmt.Sprintf("%c%02d", 'a'+i%3, i) }, true},
		{"no turns, waiting outside", func(i int) string { return fmt.Sprintf("-%02d", i) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pk peak
			var done sync.WaitGroup
			done.Add(frames)
			p := start(t, testConfig(limit, frames), func(ctx context.Context, msg string) {
				defer done.Done()
				pk.enter()
				time.Sleep(200 * time.Microsecond) // slow frames: the slots fill up
				pk.leave()
				if tt.outside {
					if err := WaitOutside(ctx, func() error { time.Sleep(time.Millisecond); return nil }); err != nil {
						t.Error(err)
					}
					pk.enter()
					time.Sleep(200 * time.Microsecond)
					pk.leave()
				}
			})
			for i := range frames {
				offer(t, p, tt.frame(i))
			}
			done.Wait()
			if got := pk.max.Load(); got > limit || got < 1 {
				t.Errorf("peak concurrent handlers = %d; want 1..%d", got, limit)
			}
			if got := p.Stats().Accepted; got != frames {
				t.Errorf("accepted = %d; want %d", got, frames)
			}
		})
	}
}

func TestFullQueueDropsAndCounts(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	p := start(t, testConfig(1, 2), func(ctx context.Context, msg string) {
		started <- struct{}{}
		<-release
	})
	offer(t, p, "-1")
	<-started // the only slot is busy; the next two wait, the third is dropped
	var errs []error
	for range 3 {
		_, err := p.Offer([]byte("-x"), time.Now(), false)
		errs = append(errs, err)
	}
	if errs[0] != nil || errs[1] != nil || !errors.Is(errs[2], ErrFull) {
		t.Errorf("offers = %v; want nil, nil, ErrFull", errs)
	}
	if got := p.Stats().Dropped; got != 1 {
		t.Errorf("dropped = %d; want 1", got)
	}
	close(release)
	for range 2 {
		<-started
	}
}

// A handler waiting in WaitOutside holds no slot: with LIMIT 1, another frame
// runs meanwhile.
func TestWaitOutsideLetsOthersRun(t *testing.T) {
	gate := make(chan struct{})
	ran := make(chan string, 2)
	p := start(t, testConfig(1, 4), func(ctx context.Context, msg string) {
		if msg == "waiter" {
			if err := WaitOutside(ctx, func() error { <-gate; return nil }); err != nil {
				t.Error(err)
			}
		}
		ran <- msg
	})
	offer(t, p, "waiter")
	offer(t, p, "other")
	if got := <-ran; got != "other" {
		t.Fatalf("first to finish = %q; want other (the waiter gave its slot up)", got)
	}
	close(gate)
	if got := <-ran; got != "waiter" {
		t.Fatalf("second = %q; want waiter", got)
	}
}

// Outside a pipeline task WaitOutside just waits, and returns wait's error.
func TestWaitOutsideWithoutTask(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name string
		err  error
	}{{"ok", nil}, {"error", boom}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := false
			err := WaitOutside(context.Background(), func() error { ran = true; return tt.err })
			if !ran || !errors.Is(err, tt.err) {
				t.Errorf("ran %v, err %v; want true, %v", ran, err, tt.err)
			}
		})
	}
}

func TestCloseFinishesQueuedFrames(t *testing.T) {
	var handled atomic.Int64
	p := newPipeline(t, testConfig(2, 100), noop.NewTracerProvider(), func(ctx context.Context, msg string) {
		handled.Add(1)
	})
	for i := range 100 {
		offer(t, p, fmt.Sprintf("%c%02d", 'a'+i%5, i))
	}
	go p.Run()
	p.Close()
	if _, err := p.Offer([]byte("late"), time.Now(), false); !errors.Is(err, ErrClosed) {
		t.Errorf("Offer after Close = %v; want ErrClosed", err)
	}
	if cut := p.Wait(context.Background()); cut != 0 || handled.Load() != 100 {
		t.Errorf("cut off %d, handled %d; want 0, 100", cut, handled.Load())
	}
}

func TestWaitCutsOffAtDeadline(t *testing.T) {
	p := newPipeline(t, testConfig(1, 10), noop.NewTracerProvider(), func(ctx context.Context, msg string) {
		<-ctx.Done() // a hung handler: only the hard stop ends it
	})
	go p.Run()
	for range 3 {
		offer(t, p, "-x")
	}
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if cut := p.Wait(ctx); cut != 3 {
		t.Errorf("cut off = %d; want 3 (1 running + 2 queued)", cut)
	}
}

// Each sender's frames reach the handler one at a time and in arrival order;
// frames without a key take no turn.
func TestTurnsKeepEachSendersOrder(t *testing.T) {
	const perSender = 20
	senders := []string{"a", "b", "c", "-"}
	var mu sync.Mutex
	got := map[string][]string{}
	running := map[string]int{}
	var done sync.WaitGroup
	done.Add(len(senders) * perSender)
	p := start(t, testConfig(4, 100), func(ctx context.Context, msg string) {
		defer done.Done()
		key := msg[:1]
		mu.Lock()
		running[key]++
		if running[key] > 1 && key != "-" {
			t.Errorf("two frames of sender %s in the handler at once", key)
		}
		got[key] = append(got[key], msg)
		mu.Unlock()
		time.Sleep(100 * time.Microsecond)
		mu.Lock()
		running[key]--
		mu.Unlock()
	})
	for i := range perSender {
		for _, sender := range senders {
			offer(t, p, fmt.Sprintf("%s%02d", sender, i))
		}
	}
	done.Wait()
	for _, sender := range senders[:3] {
		frames := got[sender]
		if len(frames) != perSender {
			t.Fatalf("sender %s: %d frames handled; want %d", sender, len(frames), perSender)
		}
		for i, f := range frames {
			if want := fmt.Sprintf("%s%02d", sender, i); f != want {
				t.Fatalf("sender %s frame %d = %s; want %s (order kept)", sender, i, f, want)
			}
		}
	}
	// A turn ends after its handler returns: wait for the tasks themselves.
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if cut := p.Wait(ctx); cut != 0 {
		t.Fatalf("%d frames cut off", cut)
	}
	if n := p.turns.len(); n != 0 {
		t.Errorf("turns left after all frames: %d; want 0", n)
	}
}

// A frame waiting for its sender's turn holds no slot: with LIMIT 2, a1 runs,
// a2 waits for a1, and b1 runs meanwhile in the slot a2 gave up.
func TestTurnWaitGivesTheSlotUp(t *testing.T) {
	release := make(chan struct{})
	ran := make(chan string, 3)
	p := start(t, testConfig(2, 10), func(ctx context.Context, msg string) {
		if msg == "a1" {
			<-release
		}
		ran <- msg
	})
	for _, raw := range []string{"a1", "a2", "b1"} {
		offer(t, p, raw)
	}
	if got := <-ran; got != "b1" {
		t.Fatalf("first to finish = %s; want b1 (a2 waits for its turn without a slot)", got)
	}
	close(release)
	for _, want := range []string{"a1", "a2"} {
		if got := <-ran; got != want {
			t.Errorf("next = %s; want %s", got, want)
		}
	}
}

// The spans of the timing model: queue runs from the read time until the
// handler starts, sender.turn is its child, and a frame whose turn does not
// come before its deadline is not handled and ends as an error.
func TestTurnSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	var mu sync.Mutex
	handled := map[string]time.Time{}
	cfg := testConfig(2, 10)
	cfg.FrameTimeout = 100 * time.Millisecond
	p := startWith(t, cfg, tp, func(ctx context.Context, msg string) {
		mu.Lock()
		handled[msg] = time.Now()
		mu.Unlock()
		if msg == "a1" {
			started <- struct{}{}
			<-release
		}
	})
	ids := map[string]trace.TraceID{}
	for _, raw := range []string{"a1", "a2", "-1"} { // a2 waits for a1, which outlives a2's deadline; -1 takes no turn
		sc, err := p.Offer([]byte(raw), time.Now(), false)
		if err != nil {
			t.Fatal(err)
		}
		ids[raw] = sc.TraceID()
		if raw == "a1" {
			<-started
		}
	}
	time.Sleep(300 * time.Millisecond)
	close(release)
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p.Wait(ctx)

	byTrace := map[trace.TraceID][]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		byTrace[s.SpanContext().TraceID()] = append(byTrace[s.SpanContext().TraceID()], s)
	}
	if len(byTrace) != 3 {
		t.Fatalf("%d traces; want 3", len(byTrace))
	}
	tests := []struct {
		frame     string
		wantTurn  bool
		wantOut   string
		wantSpans int
	}{
		{"a1", true, "", 3},
		{"a2", true, telemetry.OutcomeError, 3},
		{"-1", false, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.frame, func(t *testing.T) {
			spans := byTrace[ids[tt.frame]]
			if spans == nil {
				t.Fatalf("no trace for %s", tt.frame)
			}
			named := map[string]sdktrace.ReadOnlySpan{}
			for _, s := range spans {
				named[s.Name()] = s
			}
			if len(spans) != tt.wantSpans {
				t.Errorf("%d spans; want %d", len(spans), tt.wantSpans)
			}
			root, queue, turn := named[telemetry.SpanFrame], named[telemetry.SpanQueue], named[telemetry.SpanSenderTurn]
			if root == nil || queue == nil || queue.Parent().SpanID() != root.SpanContext().SpanID() {
				t.Fatalf("queue is not a child of frame")
			}
			if !queue.StartTime().Equal(root.StartTime()) {
				t.Errorf("queue starts at %v; want the read time %v", queue.StartTime(), root.StartTime())
			}
			if (turn != nil) != tt.wantTurn {
				t.Fatalf("sender.turn span present = %v; want %v", turn != nil, tt.wantTurn)
			}
			if turn != nil {
				if turn.Parent().SpanID() != queue.SpanContext().SpanID() {
					t.Errorf("sender.turn's parent is not queue")
				}
				if turn.EndTime().After(queue.EndTime()) {
					t.Errorf("sender.turn ends after queue")
				}
			}
			if at, ok := handled[tt.frame]; ok && at.Before(queue.EndTime()) {
				t.Errorf("handler started at %v, before queue ended at %v", at, queue.EndTime())
			}
			if got := outcomeOf(root); got != tt.wantOut {
				t.Errorf("outcome = %q; want %q", got, tt.wantOut)
			}
		})
	}
	if _, ok := handled["a2"]; ok {
		t.Errorf("a2 was handled; its turn came after its deadline")
	}
	if turn := spanNamed(byTrace, telemetry.SpanSenderTurn, 100*time.Millisecond); turn == nil {
		t.Errorf("no sender.turn span of at least the frame timeout (a2's wait)")
	}
}

func spanNamed(byTrace map[trace.TraceID][]sdktrace.ReadOnlySpan, name string, atLeast time.Duration) sdktrace.ReadOnlySpan {
	for _, spans := range byTrace {
		for _, s := range spans {
			if s.Name() == name && s.EndTime().Sub(s.StartTime()) >= atLeast {
				return s
			}
		}
	}
	return nil
}

func outcomeOf(s sdktrace.ReadOnlySpan) string {
	for _, kv := range s.Attributes() {
		if kv.Key == telemetry.AttrOutcome {
			return kv.Value.AsString()
		}
	}
	return ""
}
