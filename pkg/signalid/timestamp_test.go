package signalid

import (
	"sync"
	"testing"
	"time"
)

func TestClockNext(t *testing.T) {
	var c Clock
	t0 := time.UnixMilli(1765000000000)
	tests := []struct {
		now  time.Time
		want int64
	}{
		{t0, 1765000000000},
		{t0, 1765000000001},                   // same millisecond: one more
		{t0.Add(-time.Second), 1765000000002}, // clock stepped back: still one more
		{t0.Add(500 * time.Microsecond), 1765000000003},
		{t0.Add(time.Second), 1765000001000}, // later: the time itself
	}
	for i, tt := range tests {
		if got := c.Next(tt.now); got != tt.want {
			t.Errorf("call %d: Next(%v) = %d; want %d", i, tt.now.UnixMilli(), got, tt.want)
		}
	}
}

func TestClockConcurrentUnique(t *testing.T) {
	var c Clock
	const goroutines, each = 8, 200
	now := time.UnixMilli(1765000000000)
	got := make(chan int64, goroutines*each)
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				got <- c.Next(now)
			}
		}()
	}
	wg.Wait()
	close(got)
	seen := make(map[int64]bool, goroutines*each)
	for ts := range got {
		if seen[ts] {
			t.Fatalf("timestamp %d handed out twice", ts)
		}
		seen[ts] = true
	}
	if len(seen) != goroutines*each {
		t.Errorf("%d distinct timestamps; want %d", len(seen), goroutines*each)
	}
}
