package telemetry

import (
	"context"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Defaults of OwnTimeConfig.
const (
	DefaultMaxAge    = 2 * time.Minute
	DefaultMaxTraces = 10000
	DefaultRecent    = 1024
)

// OwnTimeConfig bounds the state of an OwnTime processor.
type OwnTimeConfig struct {
	// MaxAge is how long a trace may stay open; older ones are evicted. Default 2m.
	MaxAge time.Duration
	// MaxTraces caps the open traces; the oldest is evicted to make room. Default 10000.
	MaxTraces int
	// Recent is how many completed traces Await can still find. Default 1024.
	Recent int
	// OnBlock, when set, is called once for every completed frame trace, on
	// the goroutine that ended the trace's last span, outside any lock of
	// the processor. It runs inside span.End, so it must be fast: log a
	// line, record metrics, never block.
	OnBlock func(Block)
}

// OwnTime is a span processor that keeps the spans of each frame's trace
// until the trace's open-span count drops to zero, then computes its Block,
// publishes it and forgets the trace. Only traces whose root is SpanFrame
// (or SpanScheduled, a scheduled post's) are kept; spans of other traces are ignored. State is bounded by MaxAge (swept
// lazily when a frame trace starts, so OwnTime starts no goroutine and reads
// the clock once a frame) and by MaxTraces. It is safe for concurrent use and never blocks in OnEnd.
type OwnTime struct {
	cfg OwnTimeConfig
	now func() time.Time

	mu        sync.Mutex
	closed    bool
	traces    map[trace.TraceID]*traceState
	age       traceList
	recent    recentRing
	waiters   map[trace.TraceID][]chan awaitResult
	completed uint64
	evicted   uint64
}

var _ sdktrace.SpanProcessor = (*OwnTime)(nil)

// OwnTimeStats is a snapshot of an OwnTime processor's counters.
type OwnTimeStats struct {
	// Open is the number of frame traces with spans still open.
	Open int `json:"open"`
	// Completed counts frame traces whose last span ended.
	Completed uint64 `json:"completed"`
	// Evicted counts frame traces dropped by MaxAge or MaxTraces before completing.
	Evicted uint64 `json:"evicted"`
}

// NewOwnTime returns an OwnTime processor; zero fields of cfg take their defaults.
func NewOwnTime(cfg OwnTimeConfig) *OwnTime {
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultMaxAge
	}
	if cfg.MaxTraces <= 0 {
		cfg.MaxTraces = DefaultMaxTraces
	}
	if cfg.Recent <= 0 {
		cfg.Recent = DefaultRecent
	}
	return &OwnTime{
		cfg:     cfg,
		now:     time.Now,
		traces:  make(map[trace.TraceID]*traceState),
		recent:  newRecentRing(cfg.Recent),
		waiters: make(map[trace.TraceID][]chan awaitResult),
	}
}

// OnStart counts s as open in its trace, starting to track the trace when s
// is a frame root.
func (p *OwnTime) OnStart(_ context.Context, s sdktrace.ReadWriteSpan) {
	id := s.SpanContext().TraceID()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	st := p.traces[id]
	if st == nil {
		if !IsBlockRoot(s.Name()) || !isRoot(s.Parent()) {
			return
		}
		// The clock is read, and the old traces swept, only here: once a
		// frame, not at every span's start and end.
		now := p.now()
		p.sweepLocked(now)
		for len(p.traces) >= p.cfg.MaxTraces {
			p.evictLocked(p.age.oldest)
		}
		st = &traceState{id: id, seen: now}
		p.traces[id] = st
		p.age.push(st)
	}
	st.open++
}

// OnEnd keeps what the block needs of s and, when it was the trace's last open span, completes the trace.
func (p *OwnTime) OnEnd(s sdktrace.ReadOnlySpan) {
	sc := s.SpanContext()
	id := sc.TraceID()
	f := factsOf(s, sc) // outside the lock; wasted only on a span of a trace not kept
	p.mu.Lock()
	st := p.traces[id]
	done := false
	if st != nil {
		st.acc.add(&f)
		st.open--
		if done = st.open <= 0; done {
			p.age.remove(st)
			delete(p.traces, id)
		}
	}
	p.mu.Unlock()
	if done {
		// st is no longer reachable from p, so it is ours alone.
		p.complete(st)
	}
}

// complete computes the block of a finished trace, calls OnBlock outside the
// lock, then hands the block to Await callers and the recent ring under it.
// OnBlock comes first so that an Await caller (/_selftest) that gets the
// block can already see what OnBlock did with it (the metrics, the log line).
func (p *OwnTime) complete(st *traceState) {
	b, ok := st.acc.block()
	if !ok {
		return
	}
	if p.cfg.OnBlock != nil {
		p.cfg.OnBlock(b)
	}
	p.mu.Lock()
	p.completed++
	p.publishLocked(st.id, awaitResult{block: b})
	p.mu.Unlock()
}

// sweepLocked evicts the traces first seen more than MaxAge before now.
func (p *OwnTime) sweepLocked(now time.Time) {
	for p.age.oldest != nil && now.Sub(p.age.oldest.seen) > p.cfg.MaxAge {
		p.evictLocked(p.age.oldest)
	}
}

// evictLocked forgets an incomplete trace and fails its waiters.
func (p *OwnTime) evictLocked(st *traceState) {
	p.age.remove(st)
	delete(p.traces, st.id)
	p.evicted++
	p.publishLocked(st.id, awaitResult{err: ErrTraceEvicted})
}

// Stats returns the processor's counters.
func (p *OwnTime) Stats() OwnTimeStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return OwnTimeStats{Open: len(p.traces), Completed: p.completed, Evicted: p.evicted}
}

// Shutdown forgets every open trace and fails every pending Await with
// ErrShutdown. Later spans are ignored. It does not block.
func (p *OwnTime) Shutdown(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.traces = make(map[trace.TraceID]*traceState)
	p.age = traceList{}
	for id, chs := range p.waiters {
		for _, ch := range chs {
			ch <- awaitResult{err: ErrShutdown}
		}
		delete(p.waiters, id)
	}
	return nil
}

// ForceFlush does nothing: OwnTime exports nothing.
func (*OwnTime) ForceFlush(context.Context) error { return nil }
