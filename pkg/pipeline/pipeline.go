// Package pipeline moves frames from the reader to their tasks: a bounded
// intake FIFO that never blocks the reader, and at most Limit tasks at once.
package pipeline

import (
	"context"
	"errors"
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

// Frame is one accepted frame on its way to a task.
type Frame struct {
	Raw       []byte
	ReadAt    time.Time
	Synthetic bool
	Seq       uint64     // arrival order
	Key       string     // the sender, from Config.Decode
	Msg       any        // what Config.Decode made of Raw; nil without one
	Root      trace.Span // the frame's root span; the pipeline ends it
	Journal   uint64     // the frame's journal id, 0 if not journaled
}

// Handler runs one frame. ctx carries the root span and ends at the hard
// shutdown deadline or the frame timeout. The task holds slot while it runs
// and may give it up while it waits (see Slot.Wait).
type Handler func(ctx context.Context, f *Frame, slot *Slot)

// Config sizes the pipeline.
type Config struct {
	Limit        int           // tasks at once
	QueueDepth   int           // frames waiting for a slot
	FrameTimeout time.Duration // a task's deadline
	// Decode reads a raw frame, once, in Offer: it returns the sender ("" if
	// unknown), whose frames take turns (see Slot.Turn) and share SenderQueue,
	// and the decoded message, which the task finds in Frame.Msg. Nil: no
	// ordering.
	Decode func(raw []byte) (key string, msg any)
	// SenderQueue is how many frames of one key may wait for their turn behind
	// the one that runs; more are dropped and counted, so a flood from one
	// sender cannot grow memory. 0: no limit.
	SenderQueue int
	// QueueBytes bounds the bytes of the frames accepted and not yet finished
	// (in the FIFO or waiting for their turn); 0: no limit.
	QueueBytes int64
	// Accepted journals a frame the queue took and returns its id (0: not
	// journaled); key and msg are what Decode made of it. Finished forgets it
	// once its task has run. A frame cut off by the hard stop is not
	// finished: the next process replays it. Nil: no journal.
	Accepted func(raw []byte, readAt time.Time, synthetic bool, key string, msg any) uint64
	Finished func(id uint64)
}

// Pipeline is the intake FIFO and the task slots. Create it with New, start
// it with Run, stop it with Close and Wait.
type Pipeline struct {
	cfg    Config
	tracer trace.Tracer
	handle Handler

	fifo  chan *Frame
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

// New returns a pipeline that runs h for each frame.
func New(cfg Config, tp trace.TracerProvider, h Handler) *Pipeline {
	if cfg.Limit <= 0 {
		cfg.Limit = 8
	}
	if cfg.QueueDepth <= 0 {
		cfg.QueueDepth = 1000
	}
	if cfg.FrameTimeout <= 0 {
		cfg.FrameTimeout = 2 * time.Minute
	}
	base, cancel := context.WithCancel(context.Background())
	return &Pipeline{
		cfg:     cfg,
		tracer:  tp.Tracer("signal-bot/pipeline"),
		handle:  h,
		fifo:    make(chan *Frame, cfg.QueueDepth),
		slots:   make(chan struct{}, cfg.Limit),
		turns:   newTurns(),
		pending: newPending(),
		base:    base,
		cancel:  cancel,
		stopped: make(chan struct{}),
	}
}

// Offer starts the frame's trace and queues it without ever waiting. A full
// or closed queue is an error; the trace then ends at once, marked dropped.
func (p *Pipeline) Offer(raw []byte, readAt time.Time, synthetic bool) (trace.SpanContext, error) {
	return p.offer(raw, readAt, synthetic, 0)
}

// Replay queues a frame a previous process journaled as id and did not
// finish, like Offer; its root span says bot.replayed=true.
func (p *Pipeline) Replay(raw []byte, readAt time.Time, synthetic bool, id uint64) (trace.SpanContext, error) {
	return p.offer(raw, readAt, synthetic, id)
}

func (p *Pipeline) offer(raw []byte, readAt time.Time, synthetic bool, replayed uint64) (trace.SpanContext, error) {
	attrs := []attribute.KeyValue{telemetry.AttrSynthetic.Bool(synthetic)}
	if replayed != 0 {
		attrs = append(attrs, telemetry.AttrReplayed.Bool(true))
	}
	_, root := p.tracer.Start(context.Background(), telemetry.SpanFrame,
		trace.WithNewRoot(), trace.WithTimestamp(readAt), trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attrs...))
	f := &Frame{Raw: raw, ReadAt: readAt, Synthetic: synthetic, Seq: p.seq.Add(1), Root: root, Journal: replayed}
	if p.cfg.Decode != nil {
		// Here, not in Run: the sender's count is checked at the door, so that
		// one sender's flood cannot take the FIFO's places from everyone else.
		f.Key, f.Msg = p.cfg.Decode(raw)
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	err := ErrClosed
	switch {
	case p.closed:
	case !p.pending.add(f.Key, p.cfg.SenderQueue):
		err = ErrSender
		p.droppedSender.Add(1)
	case !p.hold(len(raw)):
		p.pending.done(f.Key)
		err = ErrBytes
		p.droppedBytes.Add(1)
	case p.reserve():
		if replayed == 0 && p.cfg.Accepted != nil {
			f.Journal = p.cfg.Accepted(raw, readAt, synthetic, f.Key, f.Msg)
		}
		p.fifo <- f // never blocks: the channel holds QueueDepth, reserve bounds it
		p.accepted.Add(1)
		return root.SpanContext(), nil
	default:
		p.pending.done(f.Key)
		p.held.Add(-int64(len(raw)))
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
func (p *Pipeline) Run() {
	defer close(p.stopped)
	for f := range p.fifo {
		if p.cfg.Decode != nil {
			p.turns.reserve(f.Key, f.Seq) // in arrival order: the scheduler is one goroutine
		}
		// The frame's task starts only once a slot is free. (Taking the frame
		// first, not the slot, keeps the scheduler from sitting on a slot that a
		// task returning from Slot.Wait needs while the queue is empty.)
		p.slots <- struct{}{}
		// Active before queued goes down: a reader of Stats never sees the
		// frame in neither (both zero while a frame is on its way to a task).
		p.active.Add(1)
		p.queued.Add(-1)
		if p.base.Err() != nil { // hard stop: what is left is cut off, not run
			f.Root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeCutOff))
			f.Root.End()
			p.turns.done(f.Key, f.Seq)
			p.finished(f)
			p.active.Add(-1)
			<-p.slots
			continue
		}
		_, q := p.tracer.Start(trace.ContextWithSpan(context.Background(), f.Root), telemetry.SpanQueue, trace.WithTimestamp(f.ReadAt))
		q.End()
		p.tasks.Add(1)
		go p.run(f)
	}
}

func (p *Pipeline) run(f *Frame) {
	slot := &Slot{p: p, held: true}
	defer func() {
		if p.cfg.Finished != nil && p.base.Err() == nil { // a frame cut by the hard stop stays journaled
			p.cfg.Finished(f.Journal)
		}
		p.turns.done(f.Key, f.Seq)
		p.finished(f)
		slot.release()
		p.active.Add(-1)
		p.tasks.Done()
	}()
	defer f.Root.End()
	ctx, cancel := context.WithTimeout(trace.ContextWithSpan(p.base, f.Root), p.cfg.FrameTimeout)
	defer cancel()
	p.handle(ctx, f, slot)
}

// reserve takes a place in the queue if one is left.
func (p *Pipeline) reserve() bool {
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
func (p *Pipeline) finished(f *Frame) {
	p.held.Add(-int64(len(f.Raw)))
	p.pending.done(f.Key)
}

// hold takes n bytes of QueueBytes if they are left.
func (p *Pipeline) hold(n int) bool {
	if p.cfg.QueueBytes <= 0 {
		p.held.Add(int64(n))
		return true
	}
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
func (p *Pipeline) Close() {
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
func (p *Pipeline) Wait(ctx context.Context) (cutOff int) {
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
func (p *Pipeline) Stats() Stats {
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
