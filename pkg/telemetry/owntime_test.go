package telemetry

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// newTracer returns a tracer of a real provider that samples everything and
// runs sps; the provider is shut down when the test ends.
func newTracer(t testing.TB, sps ...sdktrace.SpanProcessor) trace.Tracer {
	t.Helper()
	opts := []sdktrace.TracerProviderOption{sdktrace.WithSampler(sdktrace.AlwaysSample())}
	for _, sp := range sps {
		opts = append(opts, sdktrace.WithSpanProcessor(sp))
	}
	tp := sdktrace.NewTracerProvider(opts...)
	t.Cleanup(func() {
		if err := tp.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return tp.Tracer(TracerName)
}

// startFrame starts a frame root at ms after t0.
func startFrame(tr trace.Tracer, ms float64) (context.Context, trace.Span) {
	return tr.Start(context.Background(), SpanFrame, trace.WithNewRoot(),
		trace.WithSpanKind(trace.SpanKindConsumer), trace.WithTimestamp(at(ms)))
}

// span starts a child of ctx at start ms and ends it at end ms.
func span(ctx context.Context, tr trace.Tracer, name string, start, end float64, opts ...trace.SpanStartOption) context.Context {
	ctx, s := tr.Start(ctx, name, append(opts, trace.WithTimestamp(at(start)))...)
	s.End(trace.WithTimestamp(at(end)))
	return ctx
}

// runFrame emits a whole served frame: queue with the sender's turn, dispatch,
// and a handler with one send call. It returns the trace id.
func runFrame(tr trace.Tracer, command string) trace.TraceID {
	ctx, root := startFrame(tr, 0)
	qctx, q := tr.Start(ctx, SpanQueue, trace.WithTimestamp(at(0)))
	span(qctx, tr, SpanSenderTurn, 0.5, 0.9)
	q.End(trace.WithTimestamp(at(1)))
	span(ctx, tr, SpanDispatch, 1, 3)
	hctx, h := tr.Start(ctx, SpanHandler, trace.WithTimestamp(at(3)),
		trace.WithAttributes(AttrCommand.String(command)))
	span(hctx, tr, "POST /v2/send", 5, 9, trace.WithAttributes(AttrLeg.String(LegSend)))
	h.End(trace.WithTimestamp(at(10)))
	root.End(trace.WithTimestamp(at(10)))
	return root.SpanContext().TraceID()
}

// fakeClock is a settable clock for OwnTime.now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// assertEmpty fails unless own holds no trace and no waiter.
func assertEmpty(t *testing.T, own *OwnTime) {
	t.Helper()
	own.mu.Lock()
	defer own.mu.Unlock()
	if n := len(own.traces); n != 0 {
		t.Errorf("open traces = %d; want 0", n)
	}
	if own.age.oldest != nil || own.age.newest != nil {
		t.Errorf("age list not empty")
	}
	if n := len(own.waiters); n != 0 {
		t.Errorf("waiters = %d; want 0", n)
	}
}

func TestOwnTimeCompletesWhenLastSpanEnds(t *testing.T) {
	var blocks []Block
	own := NewOwnTime(OwnTimeConfig{OnBlock: func(b Block) { blocks = append(blocks, b) }})
	tr := newTracer(t, own)

	ctx, root := startFrame(tr, 0)
	hctx, h := tr.Start(ctx, SpanHandler, trace.WithTimestamp(at(0)), trace.WithAttributes(AttrCommand.String("cat")))
	_, c := tr.Start(hctx, "GET x", trace.WithTimestamp(at(10)), trace.WithAttributes(AttrLeg.String(LegUpstream)))
	h.End(trace.WithTimestamp(at(40)))
	root.End(trace.WithTimestamp(at(40)))

	if got := own.Stats(); got.Open != 1 || got.Completed != 0 || len(blocks) != 0 {
		t.Fatalf("after root ended: stats %+v, %d blocks; want 1 open, 0 completed, 0 blocks", got, len(blocks))
	}
	c.End(trace.WithTimestamp(at(60)))
	if len(blocks) != 1 {
		t.Fatalf("blocks = %d; want 1", len(blocks))
	}
	want := Block{Command: "cat", TraceID: root.SpanContext().TraceID().String(), HandlerMS: 40,
		UpstreamMS: 30, OwnMS: 10, RoundTripMS: 60,
		RootSpanID: root.SpanContext().SpanID(), Sampled: root.SpanContext().IsSampled()}
	if blocks[0] != want {
		t.Errorf("block = %+v; want %+v", blocks[0], want)
	}
	if got, want := own.Stats(), (OwnTimeStats{Completed: 1}); got != want {
		t.Errorf("Stats = %+v; want %+v", got, want)
	}
	assertEmpty(t, own)
}

func TestOwnTimeCompletesScheduledPost(t *testing.T) {
	var blocks []Block
	own := NewOwnTime(OwnTimeConfig{OnBlock: func(b Block) { blocks = append(blocks, b) }})
	tr := newTracer(t, own)

	ctx, root := tr.Start(context.Background(), SpanScheduled, trace.WithNewRoot(), trace.WithTimestamp(at(0)))
	span(ctx, tr, SpanQueue, 0, 1)
	span(ctx, tr, SpanDispatch, 1, 2)
	hctx, h := tr.Start(ctx, SpanHandler, trace.WithTimestamp(at(2)), trace.WithAttributes(AttrCommand.String("kot")))
	span(hctx, tr, "POST /v2/send", 10, 50, trace.WithAttributes(AttrLeg.String(LegSend)))
	h.End(trace.WithTimestamp(at(52)))
	root.End(trace.WithTimestamp(at(53)))
	if len(blocks) != 1 {
		t.Fatalf("blocks = %d; want 1", len(blocks))
	}
	want := Block{Command: "kot", TraceID: root.SpanContext().TraceID().String(), QueueMS: 1, DispatchMS: 1, HandlerMS: 50,
		SendMS: 40, OwnMS: 12, RoundTripMS: 53, Scheduled: true,
		RootSpanID: root.SpanContext().SpanID(), Sampled: root.SpanContext().IsSampled()}
	if blocks[0] != want {
		t.Errorf("block = %+v; want %+v", blocks[0], want)
	}
	assertEmpty(t, own)
}

func TestOwnTimeIgnoresOtherTraces(t *testing.T) {
	var n atomic.Int32
	own := NewOwnTime(OwnTimeConfig{OnBlock: func(Block) { n.Add(1) }})
	tr := newTracer(t, own)

	ctx, s := tr.Start(context.Background(), "refill", trace.WithNewRoot())
	span(ctx, tr, SpanHandler, 0, 1)
	span(ctx, tr, SpanFrame, 0, 1) // A frame that is not a root.
	s.End()
	if got := own.Stats(); got != (OwnTimeStats{}) || n.Load() != 0 {
		t.Errorf("Stats = %+v, %d blocks; want zero", got, n.Load())
	}
	assertEmpty(t, own)
}

func TestOwnTimeEviction(t *testing.T) {
	tests := []struct {
		name        string
		cfg         OwnTimeConfig
		advance     time.Duration
		frames      int
		wantOpen    int
		wantEvicted uint64
	}{
		{name: "by age", cfg: OwnTimeConfig{MaxAge: time.Minute}, advance: 61 * time.Second, frames: 3,
			wantOpen: 1, wantEvicted: 2},
		{name: "by cap", cfg: OwnTimeConfig{MaxTraces: 3}, frames: 5, wantOpen: 3, wantEvicted: 2},
		{name: "young traces stay", cfg: OwnTimeConfig{MaxAge: time.Minute}, advance: time.Second, frames: 3,
			wantOpen: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var blocks atomic.Int32
			tt.cfg.OnBlock = func(Block) { blocks.Add(1) }
			own := NewOwnTime(tt.cfg)
			clock := &fakeClock{t: t0}
			own.now = clock.Now
			tr := newTracer(t, own)

			var roots []trace.Span
			for i := range tt.frames {
				if i == tt.frames-1 {
					clock.Add(tt.advance)
				}
				_, root := startFrame(tr, 0)
				roots = append(roots, root)
			}
			got := own.Stats()
			if got.Open != tt.wantOpen || got.Evicted != tt.wantEvicted {
				t.Errorf("Stats = %+v; want open %d, evicted %d", got, tt.wantOpen, tt.wantEvicted)
			}
			if tt.wantEvicted > 0 {
				if _, err := own.Await(t.Context(), roots[0].SpanContext().TraceID()); !errors.Is(err, ErrTraceEvicted) {
					t.Errorf("Await(evicted) error = %v; want ErrTraceEvicted", err)
				}
			}
			for _, r := range roots { // Late ends of evicted traces are ignored.
				r.End()
			}
			if got, want := int(blocks.Load()), tt.frames-int(tt.wantEvicted); got != want {
				t.Errorf("blocks = %d; want %d", got, want)
			}
			assertEmpty(t, own)
		})
	}
}

func TestOwnTimeConcurrentTraces(t *testing.T) {
	const goroutines, perGoroutine = 50, 200
	var delivered atomic.Int64
	// Recent holds every trace: a goroutine preempted between its frame and
	// its Await could otherwise find its block pushed out of the ring.
	own := NewOwnTime(OwnTimeConfig{Recent: goroutines * perGoroutine, OnBlock: func(b Block) {
		if b.Command == "pomoc" && b.SendMS == 4 {
			delivered.Add(1)
		}
	}})
	tr := newTracer(t, own)

	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range perGoroutine {
				id := runFrame(tr, "pomoc")
				if _, err := own.Await(context.Background(), id); err != nil {
					t.Errorf("Await: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if got, want := delivered.Load(), int64(goroutines*perGoroutine); got != want {
		t.Errorf("blocks delivered = %d; want %d", got, want)
	}
	if got, want := own.Stats(), (OwnTimeStats{Completed: goroutines * perGoroutine}); got != want {
		t.Errorf("Stats = %+v; want %+v", got, want)
	}
	assertEmpty(t, own)
}

func TestOwnTimeAwait(t *testing.T) {
	own := NewOwnTime(OwnTimeConfig{Recent: 2})
	tr := newTracer(t, own)

	t.Run("before completion", func(t *testing.T) {
		ctx, root := startFrame(tr, 0)
		_, h := tr.Start(ctx, SpanHandler, trace.WithTimestamp(at(1)), trace.WithAttributes(AttrCommand.String("ja")))
		done := make(chan Block)
		go func() {
			b, err := own.Await(context.Background(), root.SpanContext().TraceID())
			if err != nil {
				t.Errorf("Await: %v", err)
			}
			done <- b
		}()
		for waiting := 0; waiting == 0; { // Let the waiter register first.
			time.Sleep(time.Millisecond)
			own.mu.Lock()
			waiting = len(own.waiters)
			own.mu.Unlock()
		}
		root.End(trace.WithTimestamp(at(5)))
		h.End(trace.WithTimestamp(at(5)))
		if b := <-done; b.Command != "ja" || b.HandlerMS != 4 {
			t.Errorf("Await = %+v; want command ja, handler_ms 4", b)
		}
	})
	t.Run("after completion", func(t *testing.T) {
		id := runFrame(tr, "kot")
		b, err := own.Await(context.Background(), id)
		if err != nil || b.Command != "kot" {
			t.Errorf("Await = %+v, %v; want command kot", b, err)
		}
	})
	t.Run("forgotten beyond Recent", func(t *testing.T) {
		id := runFrame(tr, "kot")
		runFrame(tr, "kot")
		runFrame(tr, "kot")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		if _, err := own.Await(ctx, id); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Await error = %v; want DeadlineExceeded", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		_, root := startFrame(tr, 0)
		defer root.End()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		defer cancel()
		if _, err := own.Await(ctx, root.SpanContext().TraceID()); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Await error = %v; want DeadlineExceeded", err)
		}
	})
	assertEmpty(t, own)
}

func TestOwnTimeShutdown(t *testing.T) {
	own := NewOwnTime(OwnTimeConfig{})
	tr := newTracer(t, own)
	_, root := startFrame(tr, 0)
	errc := make(chan error)
	go func() {
		_, err := own.Await(context.Background(), root.SpanContext().TraceID())
		errc <- err
	}()
	for waiting := 0; waiting == 0; {
		time.Sleep(time.Millisecond)
		own.mu.Lock()
		waiting = len(own.waiters)
		own.mu.Unlock()
	}
	if err := own.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-errc; !errors.Is(err, ErrShutdown) {
		t.Errorf("Await error = %v; want ErrShutdown", err)
	}
	root.End()
	if _, err := own.Await(context.Background(), trace.TraceID{1}); !errors.Is(err, ErrShutdown) {
		t.Errorf("Await after Shutdown error = %v; want ErrShutdown", err)
	}
	assertEmpty(t, own)
}
