package pipeline

import (
	"sync"
	"sync/atomic"
)

// workers are the goroutines tasks run on. A task goes to a worker that
// waits idle, whose stack has grown already in the tasks it ran before;
// only when none waits does a new goroutine start. (A new goroutine per
// task grew its stack anew for every frame, about 8 µs of CPU each:
// docs/throughput.md.) At most max workers wait idle; a worker that
// finishes a task when max already wait ends.
type workers[T any] struct {
	max  int64
	idle atomic.Int64 // workers waiting on work, or about to
	work chan *item[T]
	wg   sync.WaitGroup
}

func newWorkers[T any](max int) *workers[T] {
	return &workers[T]{max: int64(max), work: make(chan *item[T])}
}

// hand runs task(it) on an idle worker, or on a new one if none waits.
// Only the scheduler calls it, and never after stop.
func (w *workers[T]) hand(it *item[T], task func(*item[T])) {
	select {
	case w.work <- it:
	default:
		w.wg.Add(1)
		go w.run(it, task)
	}
}

// run is a worker: it runs task(it), then every item handed to it while
// it waits idle, until stop or until max other workers wait already.
func (w *workers[T]) run(it *item[T], task func(*item[T])) {
	defer w.wg.Done()
	for {
		task(it)
		if w.idle.Add(1) > w.max {
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
