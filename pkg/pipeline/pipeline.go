// Package pipeline is the bot's scheduler: a bounded FIFO that never blocks
// whoever pushes, at most Limit tasks at once, and the items of one key (a
// sender) one after another in arrival order. An item waiting for its key's
// turn holds no slot. It knows nothing of what it schedules beyond a key
// and a size: Push queues an item, Run hands each to a task.
package pipeline

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// Errors of Push.
var (
	ErrFull   = errors.New("intake queue full")
	ErrBytes  = errors.New("intake holds QUEUE_BYTES of frames")
	ErrSender = errors.New("the sender has SENDER_QUEUE frames waiting")
	ErrClosed = errors.New("intake closed")
)

// Pipeline is the FIFO, the keys' turns and the task slots. Create it with
// New, start it with Run, stop it with Close and Wait.
type Pipeline[T any] struct {
	cfg Config

	fifo  chan *item[T]
	slots chan struct{}
	turns *turns

	mu     sync.RWMutex // guards closed against Push racing Close
	closed bool

	base    context.Context // cancelled by Wait's deadline: the hard stop
	cancel  context.CancelFunc
	tasks   sync.WaitGroup
	stopped chan struct{}

	queued   atomic.Int64 // pushed, not yet in a slot: at most QueueDepth
	seq      atomic.Uint64
	dropped  atomic.Int64
	accepted atomic.Int64
	active   atomic.Int64

	held                        atomic.Int64 // bytes of items pushed and not finished: at most QueueBytes
	droppedSender, droppedBytes atomic.Int64
	pending                     *pending // items pushed and not finished, per key
}

// New returns a pipeline sized by cfg (checked by package config, once:
// Config.Validate).
func New[T any](cfg Config) *Pipeline[T] {
	base, cancel := context.WithCancel(context.Background())
	return &Pipeline[T]{
		cfg:     cfg,
		fifo:    make(chan *item[T], cfg.QueueDepth),
		slots:   make(chan struct{}, cfg.Limit),
		turns:   newTurns(),
		pending: newPending(),
		base:    base,
		cancel:  cancel,
		stopped: make(chan struct{}),
	}
}

// Close stops accepting items; the ones already queued still run.
func (p *Pipeline[T]) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.fifo)
	}
}

// Wait waits until every pushed item has finished, or ctx ends; then it
// cancels the tasks still running (the hard stop: Slot.Stopped) and reports
// how many were cut off (running plus still queued). The items still queued
// are handed to Run's fn all the same, stopped, so that each is told.
func (p *Pipeline[T]) Wait(ctx context.Context) (cutOff int) {
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
	Senders                        int   // keys with items in flight
	Accepted, Dropped              int64 // Dropped: every reason
	DroppedFull                    int64 // the FIFO was full
	DroppedSender                  int64 // SenderQueue items of the key were waiting
	DroppedBytes                   int64 // QueueBytes of items were held
	HeldBytes                      int64 // bytes of items pushed and not finished
}

// Stats reports the queue and slots now.
func (p *Pipeline[T]) Stats() Stats {
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
