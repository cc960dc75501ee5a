package pictures

import (
	"context"
	"net/http"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/telemetry"
	"signal-bot/pkg/upstream"
)

// tracedUpstream is the fake Cat API behind a telemetry.NewTransport client marked
// leg=upstream, with OwnTime and a span recorder on the provider, as in the bot.
type tracedUpstream struct {
	up  *fakeup.Server
	tp  *sdktrace.TracerProvider
	own *telemetry.OwnTime
	rec *tracetest.SpanRecorder
	src *Source
}

func newTracedUpstream(t *testing.T) *tracedUpstream {
	t.Helper()
	u := &tracedUpstream{up: fakeup.New(fakeup.Config{}), own: telemetry.NewOwnTime(telemetry.OwnTimeConfig{}), rec: tracetest.NewSpanRecorder()}
	base, err := u.up.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u.tp = sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(u.own), sdktrace.WithSpanProcessor(u.rec))
	tr := &http.Transport{}
	t.Cleanup(func() {
		_ = u.tp.Shutdown(context.Background())
		tr.CloseIdleConnections()
		_ = u.up.Close()
	})
	hc := &http.Client{Transport: telemetry.NewTransport(tr, u.tp, telemetry.LegUpstream)}
	cat, err := upstream.NewCatAPI(hc, upstream.CatAPIConfig{BaseURL: base, Size: "med", MIMETypes: "jpg", MaxBytes: 10 << 20})
	if err != nil {
		t.Fatal(err)
	}
	u.src = mustSource(t, SourceConfig{Name: "cat", Fetcher: cat, Shrink: shrinkOn, Tracer: u.tp, Log: discardLog()})
	return u
}

// frame runs src.Picture inside a frame root and a handler span, calls
// during (if set) before the handler ends, and returns the frame's block.
func (u *tracedUpstream) frame(t *testing.T, src commands.PictureSource, during func()) (telemetry.Block, trace.SpanContext) {
	t.Helper()
	tr := u.tp.Tracer("test")
	ctx, root := tr.Start(context.Background(), telemetry.SpanFrame, trace.WithNewRoot())
	hctx, h := tr.Start(ctx, telemetry.SpanHandler, trace.WithAttributes(telemetry.AttrCommand.String("cat")))
	if _, err := src.Picture(hctx); err != nil {
		t.Fatalf("Picture: %v", err)
	}
	if during != nil {
		during()
	}
	h.End()
	root.End()
	actx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := u.own.Await(actx, root.SpanContext().TraceID())
	if err != nil {
		t.Fatal(err)
	}
	return b, root.SpanContext()
}

// A pool hit makes no upstream call in the frame: its refill, though it
// runs while the frame is still open, is a trace of its own, linked to the
// frame. A miss fetches inline, and that time is the frame's upstream time.
func TestUpstreamTimeOfHitAndMiss(t *testing.T) {
	u := newTracedUpstream(t)

	pool, _ := poolOver(t, u.src, testPoolConfig())
	testkit.WaitFor(t, "the pool to fill", func() bool { return pool.Stats().Ready == 2 })
	hit, frameSC := u.frame(t, pool, func() {
		testkit.WaitFor(t, "the refill", func() bool { return pool.Stats().Refills == 3 })
	})
	if hit.UpstreamMS != 0 {
		t.Errorf("hit: upstream_ms = %v; want 0", hit.UpstreamMS)
	}
	if refill := findRefill(u.rec.Ended(), frameSC); refill == nil {
		t.Error("no pool.refill root span linked to the frame")
	} else if refill.SpanContext().TraceID() == frameSC.TraceID() || refill.Parent().IsValid() {
		t.Error("the refill span is in the frame's trace; want a new root")
	}

	u.up.SetFault(fakeup.TargetCatSearch, fakeup.Fault5xx)
	empty, _ := poolOver(t, u.src, testPoolConfig(func(c *PoolConfig) { c.Size, c.Concurrency = 1, 1 }))
	testkit.WaitFor(t, "the refill to fail", func() bool { return empty.Stats().BackingOff })
	u.up.SetFault(fakeup.TargetCatSearch, fakeup.FaultNone)
	miss, _ := u.frame(t, empty, nil)
	if miss.UpstreamMS <= 0 || empty.Stats().Misses != 1 {
		t.Errorf("miss: upstream_ms = %v, misses %d; want > 0, 1", miss.UpstreamMS, empty.Stats().Misses)
	}

	inline, _ := u.frame(t, u.src, nil)
	if inline.UpstreamMS <= 0 {
		t.Errorf("pool off: upstream_ms = %v; want > 0", inline.UpstreamMS)
	}
}

// poolOver makes a started pool over src with a manual timer.
func poolOver(t *testing.T, src *Source, cfg PoolConfig) (*Pool, *manualTimer) {
	t.Helper()
	cfg.Log = discardLog()
	cfg.Tracer = src.cfg.Tracer
	p := newPool(context.Background(), src, cfg)
	m := &manualTimer{}
	p.after, p.jitter = m.after, func() float64 { return 1 }
	p.kick(trace.Link{})
	t.Cleanup(func() {
		if err := p.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return p, m
}

// findRefill returns the pool.refill span linked to the frame sc.
func findRefill(spans []sdktrace.ReadOnlySpan, sc trace.SpanContext) sdktrace.ReadOnlySpan {
	for _, s := range spans {
		if s.Name() != telemetry.SpanPoolRefill {
			continue
		}
		for _, l := range s.Links() {
			if l.SpanContext.TraceID() == sc.TraceID() {
				return s
			}
		}
	}
	return nil
}
