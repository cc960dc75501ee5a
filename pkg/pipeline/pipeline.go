// Package pipeline moves frames from the reader to their handler: a bounded
// intake FIFO that never blocks the reader, each sender's frames one after
// another in arrival order, and at most Limit tasks at once. A task waiting
// for its sender's turn holds no slot.
package pipeline

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/telemetry"
)

// Errors of Offer.
var (
	ErrFull   = errors.New("intake queue full")
	ErrBytes  = errors.New("intake holds QUEUE_BYTES of frames")
	ErrSender = errors.New("the sender has SENDER_QUEUE frames waiting")
	ErrClosed = errors.New("intake closed")
)

// Handler is what the pipeline runs frames through. Decode reads a raw frame,
// once, in Offer, on the reader's goroutine (it must not block): it returns
// the sender's key and the message. Handle runs the message in the frame's
// task, only when it is its sender's turn; ctx carries the frame's root span
// and ends at the hard shutdown deadline or the frame timeout.
//
// The frames of one key run one after another, in arrival order, and share
// SenderQueue. Key "" means a frame that takes no turn: nothing of its sender
// is waiting for it (a receipt, typing, text that is not a command, a
// malformed frame), so it runs as soon as it has a slot.
type Handler[M any] interface {
	Decode(raw []byte) (key string, msg M)
	Handle(ctx context.Context, msg M)
}

// frame is one accepted frame on its way to its task.
type frame[M any] struct {
	size    int // bytes of the raw frame, held against QueueBytes
	readAt  time.Time
	seq     uint64     // arrival order
	key     string     // the sender, from Decode
	msg     M          // what Decode made of the raw frame
	root    trace.Span // the frame's root span; the pipeline ends it
	journal uint64     // the frame's journal id, 0 if not journaled
}

// Hooks are what the pipeline calls besides its handler; each may be nil.
type Hooks struct {
	// Accepted journals a frame the queue took and returns its id (0: not
	// journaled); key and msg are what Decode made of it. Finished forgets it
	// once its task has run. A frame cut off by the hard stop is not
	// finished: the next process replays it. Nil: no journal.
	Accepted func(raw []byte, readAt time.Time, synthetic bool, key string, msg any) uint64
	Finished func(id uint64)
	// Log gets a line for a frame whose sender's turn did not come before
	// its deadline; nil: no log.
	Log *slog.Logger
}

// Pipeline is the intake FIFO, the senders' turns and the task slots. Create
// it with New, start it with Run, stop it with Close and Wait.
type Pipeline[M any] struct {
	cfg    Config
	hooks  Hooks
	tracer trace.Tracer
	h      Handler[M]

	fifo  chan *frame[M]
	slots chan struct{}
	turns *turns

	mu     sync.RWMutex // guards closed against Offer racing Close
	closed bool

	base    context.Context
	cancel  context.CancelFunc
	tasks   sync.WaitGroup
	stopped chan struct{}

	queued   atomic.Int64 // accepted, not yet in a slot: at most QueueDepth
	seq      atomic.Uint64
	dropped  atomic.Int64
	accepted atomic.Int64
	active   atomic.Int64

	held                        atomic.Int64 // bytes of frames accepted and not finished: at most QueueBytes
	droppedSender, droppedBytes atomic.Int64
	pending                     *pending // frames accepted and not finished, per key
}

// New returns a pipeline that runs each frame through h, with spans of tp.
func New[M any](cfg Config, hooks Hooks, tp trace.TracerProvider, h Handler[M]) *Pipeline[M] {
	if hooks.Log == nil {
		hooks.Log = slog.New(slog.DiscardHandler)
	}
	base, cancel := context.WithCancel(context.Background())
	return &Pipeline[M]{
		cfg:     cfg,
		hooks:   hooks,
		tracer:  tp.Tracer("signal-bot/pipeline"),
		h:       h,
		fifo:    make(chan *frame[M], cfg.QueueDepth),
		slots:   make(chan struct{}, cfg.Limit),
		turns:   newTurns(),
		pending: newPending(),
		base:    base,
		cancel:  cancel,
		stopped: make(chan struct{}),
	}
}

// Offer starts the frame's trace, has the handler decode it and queues it
// without ever waiting. A full or closed queue is an error; the trace then
// ends at once, marked dropped.
func (p *Pipeline[M]) Offer(raw []byte, readAt time.Time, synthetic bool) (trace.SpanContext, error) {
	return p.offer(raw, readAt, synthetic, 0)
}

// Replay queues a frame a previous process journaled as id and did not
// finish, like Offer; its root span says bot.replayed=true.
func (p *Pipeline[M]) Replay(raw []byte, readAt time.Time, synthetic bool, id uint64) (trace.SpanContext, error) {
	return p.offer(raw, readAt, synthetic, id)
}

func (p *Pipeline[M]) offer(raw []byte, readAt time.Time, synthetic bool, replayed uint64) (trace.SpanContext, error) {
	attrs := []attribute.KeyValue{telemetry.AttrSynthetic.Bool(synthetic)}
	if replayed != 0 {
		attrs = append(attrs, telemetry.AttrReplayed.Bool(true))
	}
	_, root := p.tracer.Start(context.Background(), telemetry.SpanFrame,
		trace.WithNewRoot(), trace.WithTimestamp(readAt), trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attrs...))
	f := &frame[M]{size: len(raw), readAt: readAt, seq: p.seq.Add(1), root: root, journal: replayed}
	// Here, not in Run: the sender's count is checked at the door, so that
	// one sender's flood cannot take the FIFO's places from everyone else.
	f.key, f.msg = p.h.Decode(raw)
	p.mu.RLock()
	defer p.mu.RUnlock()
	err := ErrClosed
	switch {
	case p.closed:
	case !p.pending.add(f.key, p.cfg.SenderQueue):
		err = ErrSender
		p.droppedSender.Add(1)
	case !p.hold(f.size):
		p.pending.done(f.key)
		err = ErrBytes
		p.droppedBytes.Add(1)
	case p.reserve():
		if replayed == 0 && p.hooks.Accepted != nil {
			f.journal = p.hooks.Accepted(raw, readAt, synthetic, f.key, f.msg)
		}
		p.fifo <- f // never blocks: the channel holds QueueDepth, reserve bounds it
		p.accepted.Add(1)
		return root.SpanContext(), nil
	default:
		p.pending.done(f.key)
		p.held.Add(-int64(f.size))
		err = ErrFull
		p.dropped.Add(1)
	}
	root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeDropped))
	root.SetStatus(codes.Error, err.Error())
	root.End()
	return root.SpanContext(), err
}

// Run hands queued frames to tasks, one slot each, until Close has been
// called and the queue is empty. Call it once.
func (p *Pipeline[M]) Run() {
	defer close(p.stopped)
	for f := range p.fifo {
		if f.key != "" {
			p.turns.reserve(f.key, f.seq) // in arrival order: the scheduler is one goroutine
		}
		// The queue span runs from the read time until the handler starts: the
		// wait for a slot and then for the sender's turn.
		_, queue := p.tracer.Start(trace.ContextWithSpan(context.Background(), f.root), telemetry.SpanQueue, trace.WithTimestamp(f.readAt))
		// The frame's task starts only once a slot is free. (Taking the frame
		// first, not the slot, keeps the scheduler from sitting on a slot that a
		// task coming back from a wait needs while the queue is empty.)
		p.slots <- struct{}{}
		// Active before queued goes down: a reader of Stats never sees the
		// frame in neither (both zero while a frame is on its way to a task).
		p.active.Add(1)
		p.queued.Add(-1)
		if p.base.Err() != nil { // hard stop: what is left is cut off, not run
			queue.End()
			f.root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeCutOff))
			f.root.End()
			p.finished(f)
			p.active.Add(-1)
			<-p.slots
			continue
		}
		p.tasks.Add(1)
		go p.run(f, queue)
	}
}

// run is the frame's task: it waits for the sender's turn, then hands the
// message to the handler. It holds a slot from the start, except while it
// waits for its turn or inside WaitOutside.
func (p *Pipeline[M]) run(f *frame[M], queue trace.Span) {
	s := &slot{slots: p.slots, held: true}
	defer func() {
		if p.hooks.Finished != nil && p.base.Err() == nil { // a frame cut by the hard stop stays journaled
			p.hooks.Finished(f.journal)
		}
		p.finished(f)
		s.release()
		p.active.Add(-1)
		p.tasks.Done()
	}()
	defer f.root.End()
	ctx, cancel := context.WithTimeout(trace.ContextWithSpan(p.base, f.root), p.cfg.FrameTimeout)
	defer cancel()
	err := p.awaitTurn(ctx, f, s, queue)
	queue.End()
	if err != nil {
		outcome := telemetry.OutcomeError
		if p.base.Err() != nil {
			outcome = telemetry.OutcomeCutOff
		} else {
			p.hooks.Log.WarnContext(ctx, "frame not run: its sender's turn did not come before its deadline", "err", err)
		}
		f.root.SetAttributes(telemetry.AttrOutcome.String(outcome))
		f.root.SetStatus(codes.Error, "wait for the sender's turn: "+err.Error())
		return
	}
	p.h.Handle(context.WithValue(ctx, slotKey{}, s), f.msg)
}

// awaitTurn waits, inside the queue span, until every earlier frame of f's
// sender has finished, giving the slot up meanwhile. The turn ends when the
// task ends. A frame without a key takes no turn.
func (p *Pipeline[M]) awaitTurn(ctx context.Context, f *frame[M], s *slot, queue trace.Span) error {
	if f.key == "" {
		return nil
	}
	ctx, span := p.tracer.Start(trace.ContextWithSpan(ctx, queue), telemetry.SpanSenderTurn)
	defer span.End()
	ready := p.turns.ready(f.key, f.seq)
	select {
	case <-ready:
		return nil
	default:
	}
	return s.wait(ctx, func() error {
		select {
		case <-ready:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// reserve takes a place in the queue if one is left.
func (p *Pipeline[M]) reserve() bool {
	for {
		n := p.queued.Load()
		if n >= int64(cap(p.fifo)) {
			return false
		}
		if p.queued.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// finished gives back what an accepted frame held: its bytes and its place in its
// sender's queue.
func (p *Pipeline[M]) finished(f *frame[M]) {
	if f.key != "" {
		p.turns.done(f.key, f.seq)
	}
	p.held.Add(-int64(f.size))
	p.pending.done(f.key)
}

// hold takes n bytes of QueueBytes if they are left.
func (p *Pipeline[M]) hold(n int) bool {
	for {
		h := p.held.Load()
		if h+int64(n) > p.cfg.QueueBytes {
			return false
		}
		if p.held.CompareAndSwap(h, h+int64(n)) {
			return true
		}
	}
}

// Close stops accepting frames; the ones already queued still run.
func (p *Pipeline[M]) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.fifo)
	}
}

// Wait waits until every accepted frame has finished, or ctx ends; then it
// cancels the frames still running and reports how many were cut off
// (running plus still queued).
func (p *Pipeline[M]) Wait(ctx context.Context) (cutOff int) {
	done := make(chan struct{})
	go func() {
		<-p.stopped
		p.tasks.Wait()
		close(done)
	}()
	select {
	case <-done:
		p.cancel()
		return 0
	case <-ctx.Done():
	}
	cutOff = int(p.active.Load() + p.queued.Load())
	p.cancel()
	<-done
	return cutOff
}

// Stats is a snapshot for /healthz and metrics.
type Stats struct {
	Depth, Capacity, Active, Limit int
	Senders                        int   // senders with frames in flight
	Accepted, Dropped              int64 // Dropped: every reason
	DroppedFull                    int64 // the FIFO was full
	DroppedSender                  int64 // SenderQueue frames of the sender were waiting
	DroppedBytes                   int64 // QueueBytes of frames were held
	HeldBytes                      int64 // bytes of frames accepted and not finished
}

// Stats reports the queue and slots now.
func (p *Pipeline[M]) Stats() Stats {
	return Stats{
		Depth: int(p.queued.Load()), Capacity: cap(p.fifo),
		Active: int(p.active.Load()), Limit: p.cfg.Limit,
		Accepted:    p.accepted.Load(),
		Dropped:     p.dropped.Load() + p.droppedSender.Load() + p.droppedBytes.Load(),
		Senders:     p.turns.len(),
		DroppedFull: p.dropped.Load(), DroppedSender: p.droppedSender.Load(), DroppedBytes: p.droppedBytes.Load(),
		HeldBytes: p.held.Load(),
	}
}
