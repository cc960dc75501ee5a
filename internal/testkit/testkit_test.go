package testkit

import (
	"fmt"
	"net"
	"strconv"
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

// FreeAddr's port is below the ephemeral range and free: the test can
// listen on it.
func TestFreeAddr(t *testing.T) {
	addr := FreeAddr(t)
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := strconv.Atoi(port); p < 10000 || p >= ephemeralLow() {
		t.Errorf("port %d; want from 10000 up to the ephemeral range's %d", p, ephemeralLow())
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	ln.Close()
}
