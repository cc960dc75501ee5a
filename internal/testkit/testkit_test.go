package testkit

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSyncBufferConcurrentWriters(t *testing.T) {
	var b SyncBuffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 100 {
				fmt.Fprintf(&b, "%d\n", i)
			}
		})
	}
	wg.Wait()
	if n := strings.Count(b.String(), "\n"); n != 800 {
		t.Errorf("%d lines; want 800", n)
	}
}

func TestWaitForReturnsOnceTheConditionHolds(t *testing.T) {
	var calls atomic.Int64
	start := time.Now()
	WaitFor(t, "the third call", func() bool { return calls.Add(1) == 3 })
	if n := calls.Load(); n != 3 {
		t.Errorf("cond called %d times; want 3", n)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v for three polls; want milliseconds", d)
	}
}
