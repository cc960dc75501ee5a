package pipeline

import (
	"context"
	"sync"
	"sync/atomic"
)

// Run hands queued items to tasks, one slot each, until Close has been
// called and the queue is empty. Call it once. fn runs in the item's task
// with the task's Slot, once for every item pushed: ctx ends at the item's
// FrameTimeout or at the hard stop (Wait's deadline). An item still queued
// at the hard stop is handed over all the same, its ctx already done and
// s.Stopped() true, so that fn can tell it was cut off.
func (p *Pipeline[T]) Run(fn func(ctx context.Context, s *Slot, v T)) {
	defer close(p.stopped)
	w := newWorkers[T](p.cfg.Limit)
	defer w.stop()
	task := func(it *item[T]) { p.task(fn, it) }
	for it := range p.fifo {
		if it.key != "" {
			p.turns.reserve(it.key, it.seq) // in arrival order: the scheduler is one goroutine
		}
		// The task starts only once a slot is free. (Taking the item first,
		// not the slot, keeps the scheduler from sitting on a slot that a task
		// coming back from a wait needs while the queue is empty.)
		p.slots <- struct{}{}
		// Active before queued goes down: a reader of Stats never sees the
		// item in neither (both zero while an item is on its way to a task).
		p.active.Add(1)
		p.queued.Add(-1)
		p.tasks.Add(1)
		w.hand(it, task)
	}
}

// task runs fn for it, holding a slot except while fn waits outside it.
func (p *Pipeline[T]) task(fn func(context.Context, *Slot, T), it *item[T]) {
	s := &Slot{slots: p.slots, held: true, base: p.base}
	if it.key != "" {
		s.turn = p.turns.ready(it.key, it.seq)
	}
	ctx, cancel := context.WithTimeout(p.base, p.cfg.FrameTimeout)
	defer func() {
		cancel()
		p.release(it)
		s.release()
		p.active.Add(-1)
		p.tasks.Done()
	}()
	fn(ctx, s, it.val)
}

// workers are the goroutines tasks run on. A task goes to a worker that
// waits idle, whose stack has grown already in the tasks it ran before;
// only when none waits does a new goroutine start. (A new goroutine per
// task grew its stack anew for every frame, about 8 µs of CPU each:
// docs/throughput.md.) At most maxIdle workers wait idle; a worker that
// finishes a task when maxIdle already wait ends.
type workers[T any] struct {
	maxIdle int64
	idle    atomic.Int64 // workers waiting on work, or about to
	work    chan *item[T]
	wg      sync.WaitGroup
	started int // goroutines started; only the scheduler (hand) touches it
}

func newWorkers[T any](maxIdle int) *workers[T] {
	return &workers[T]{maxIdle: int64(maxIdle), work: make(chan *item[T])}
}

// hand runs task(it) on an idle worker, or on a new one if none waits.
// Only the scheduler calls it, and never after stop.
func (w *workers[T]) hand(it *item[T], task func(*item[T])) {
	select {
	case w.work <- it:
	default:
		w.wg.Add(1)
		w.started++
		go w.run(it, task)
	}
}

// run is a worker: it runs task(it), then every item handed to it while
// it waits idle, until stop or until maxIdle other workers wait already.
func (w *workers[T]) run(it *item[T], task func(*item[T])) {
	defer w.wg.Done()
	for {
		task(it)
		if w.idle.Add(1) > w.maxIdle {
			w.idle.Add(-1)
			return
		}
		next, ok := <-w.work
		w.idle.Add(-1)
		if !ok {
			return
		}
		it = next
	}
}

// stop ends the idle workers and waits until every worker has ended, the
// ones still running a task included.
func (w *workers[T]) stop() {
	close(w.work)
	w.wg.Wait()
}

// Slot is a task's share of the Limit, handed to Run's fn. A task gives it
// up while it waits for something that needs no slot (its key's turn, the
// outbound budget), so that waiting never keeps other people's items in the
// queue. Only the task's own goroutine uses it.
type Slot struct {
	slots chan struct{}
	held  bool
	turn  <-chan struct{} // closed when it is the item's turn; nil: no key
	base  context.Context // done at the hard stop
}

// AwaitTurn waits, without holding the slot, until every earlier item of the
// task's key has finished. fn calls it before the work that must keep the
// key's order; an item without a key has its turn at once. It returns ctx's
// error if the turn did not come in time.
func (s *Slot) AwaitTurn(ctx context.Context) error {
	if s == nil || s.turn == nil {
		return nil
	}
	select {
	case <-s.turn:
		return nil
	default:
	}
	return s.WaitOutside(ctx, func() error {
		select {
		case <-s.turn:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// WaitOutside runs wait without the slot: it gives the slot up, runs wait
// and takes a slot again, so that other items run meanwhile. It returns
// wait's error, or ctx's if no slot came back in time (the slot is then not
// held). On a nil Slot (outside a task) it just runs wait.
func (s *Slot) WaitOutside(ctx context.Context, wait func() error) error {
	if s == nil {
		return wait()
	}
	s.release()
	if err := wait(); err != nil {
		return err
	}
	select {
	case s.slots <- struct{}{}:
		s.held = true
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stopped reports whether the hard stop has come (Wait's deadline passed):
// the item is then cut off, not finished, whatever fn did with it.
func (s *Slot) Stopped() bool { return s != nil && s.base.Err() != nil }

func (s *Slot) release() {
	if s.held {
		s.held = false
		<-s.slots
	}
}
