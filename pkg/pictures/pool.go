package pictures

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/telemetry"
)

// PoolConfig configures a Pool; Start makes it from the checked Config
// (POOL_SIZE_*, POOL_MAX_BYTES, POOL_REFILL_CONCURRENCY, POOL_BACKOFF_MIN,
// POOL_BACKOFF_MAX) and UPSTREAM_TIMEOUT. NewPool trusts it: every size and
// time must be positive.
type PoolConfig struct {
	// Size is how many pictures the pool keeps ready; at least 1.
	Size int
	// MaxBytes bounds the bytes of the ready pictures' data URIs. A fetched
	// picture that does not fit is discarded.
	MaxBytes int64
	// Concurrency bounds the refills running at once.
	Concurrency int
	// BackoffMin and BackoffMax bound the wait after failed refills, which
	// doubles with each consecutive failure; BackoffMax is at least BackoffMin.
	BackoffMin, BackoffMax time.Duration
	// Timeout bounds one refill, fetch and shrink.
	Timeout time.Duration
	// Tracer makes the take and refill spans; nil means no spans.
	Tracer trace.TracerProvider
	// Log gets refill failures; nil means slog.Default().
	Log *slog.Logger
	// Panicked counts a panic recovered in a refill; nil: not counted.
	Panicked func()
}

// Pool keeps pictures of one command fetched, checked, shrunk and encoded,
// ready to send. Picture takes one in O(1) without an upstream call and
// starts a refill in the background; an empty pool falls back to fetching
// inline, in the frame's trace. Each picture is served once. Refills run in
// traces of their own, linked to the take that caused them, at most
// Concurrency at once, and back off exponentially after failures. It is safe
// for concurrent use.
type Pool struct {
	src    *Source
	cfg    PoolConfig
	tracer trace.Tracer
	log    *slog.Logger
	ctx    context.Context // the pool's lifetime; refills run in it
	cancel context.CancelFunc
	wg     sync.WaitGroup // running refills
	// after runs f once d has passed and returns a func that cancels it;
	// time.AfterFunc, replaced by tests.
	after  func(d time.Duration, f func()) (stop func() bool)
	jitter func() float64

	mu        sync.Mutex // guards the fields below
	closed    bool
	ready     []readyPicture // oldest first
	held      int64
	largest   int64 // the largest picture admitted, the reserve per running refill
	inflight  int
	failures  int
	stopRetry func() bool // non-nil while backing off
	st        Stats
}

// readyPicture is a prepared picture and what it costs the byte budget.
type readyPicture struct {
	pic  commands.Picture
	size int64
}

var _ commands.PictureSource = (*Pool)(nil)

// NewPool returns a pool in front of src and starts filling it. The pool
// lives until ctx ends or Close is called; call Close in either case to wait
// for its refills.
func NewPool(ctx context.Context, src *Source, cfg PoolConfig) *Pool {
	p := newPool(ctx, src, cfg)
	p.kick(trace.Link{})
	return p
}

// newPool returns a pool that has not started filling, so tests can replace
// its timer and jitter first.
func newPool(ctx context.Context, src *Source, cfg PoolConfig) *Pool {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	tp := cfg.Tracer
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	p := &Pool{
		src: src, cfg: cfg, tracer: tp.Tracer(telemetry.PicturesTracerName),
		after:  func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop },
		jitter: randomJitter,
	}
	p.log = cfg.Log.With("command", src.Name())
	p.ctx, p.cancel = context.WithCancel(ctx)
	return p
}

// Picture takes the oldest ready picture, or fetches one inline when none is
// ready (a miss), and either way starts refilling the pool.
func (p *Pool) Picture(ctx context.Context) (commands.Picture, error) {
	ctx, span := p.tracer.Start(ctx, telemetry.SpanPoolTake, trace.WithAttributes(telemetry.AttrPool.String(p.src.Name())))
	defer span.End()
	pic, ok := p.take()
	span.SetAttributes(telemetry.AttrPoolHit.Bool(ok))
	p.kick(trace.LinkFromContext(ctx))
	if ok {
		return pic, nil
	}
	return p.src.Picture(ctx)
}

// take pops the oldest ready picture and counts the hit or the miss.
func (p *Pool) take() (commands.Picture, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.ready) == 0 {
		p.st.Misses++
		return commands.Picture{}, false
	}
	r := p.ready[0]
	p.ready[0] = readyPicture{} // let the picture go as soon as the frame is done with it
	p.ready = p.ready[1:]
	p.held -= r.size
	p.st.Hits++
	return r.pic, true
}

// Stats returns the pool's state and counters.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.st
	s.Ready, s.Size = len(p.ready), p.cfg.Size
	s.HeldBytes, s.MaxBytes = p.held, p.cfg.MaxBytes
	s.InFlight, s.Failures, s.BackingOff = p.inflight, p.failures, p.stopRetry != nil
	return s
}

// Close stops the refills, drops the ready pictures and waits until every
// refill has returned or ctx ends. Takes after Close fetch inline.
func (p *Pool) Close(ctx context.Context) error {
	p.mu.Lock()
	p.closed = true
	if p.stopRetry != nil {
		p.stopRetry()
		p.stopRetry = nil
	}
	p.ready, p.held = nil, 0
	p.mu.Unlock()
	p.cancel()
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close the !%s picture pool: %w", p.src.Name(), context.Cause(ctx))
	}
}
