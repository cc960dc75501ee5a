package pipeline

import (
	"runtime"
	"testing"
)

// waitIdle yields until n workers wait idle.
func waitIdle[T any](w *workers[T], n int64) {
	for w.idle.Load() != n {
		runtime.Gosched()
	}
}

func TestWorkersReuseAnIdleOneAndKeepAtMostMaxIdle(t *testing.T) {
	w := newWorkers[int](1)
	release := make(chan struct{})
	done := make(chan int, 3)
	task := func(it *item[int]) {
		if it.val < 0 { // a task that holds its worker until released
			<-release
		}
		done <- it.val
	}

	w.hand(&item[int]{val: 1}, task)
	<-done
	waitIdle(w, 1)
	w.hand(&item[int]{val: 2}, task)
	<-done
	if w.started != 1 {
		t.Fatalf("goroutines started = %d after two tasks one after the other; want 1 (the idle worker reused)", w.started)
	}

	waitIdle(w, 1)
	w.hand(&item[int]{val: -1}, task) // the idle worker takes it and is held
	waitIdle(w, 0)
	w.hand(&item[int]{val: 3}, task) // none idle: a new goroutine
	<-done
	if w.started != 2 {
		t.Fatalf("goroutines started = %d; want 2 (a new one while the only worker was busy)", w.started)
	}
	waitIdle(w, 1) // the new worker waits idle: maxIdle reached
	close(release)
	<-done
	// The held worker finished while maxIdle already waited, so it ended:
	// one worker is left, idle, and stop ends it (goleak checks at the end).
	w.stop()
	if got := w.idle.Load(); got != 0 {
		t.Errorf("idle after stop = %d; want 0", got)
	}
}
