package pictures

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"signal-bot/pkg/upstream"
)

var errFake = errors.New("fake upstream down")

// fakeFetcher hands out a distinct small JPEG per call, or fails, or waits
// at its gate; it counts calls.
type fakeFetcher struct {
	t    testing.TB
	mu   sync.Mutex
	n    int
	fail error
	data func(n int) []byte // nil: a distinct 64x48 JPEG per call
	gate chan struct{}      // non-nil: each call waits for a value or ctx
}

func (f *fakeFetcher) Random(ctx context.Context) (upstream.Image, error) {
	f.mu.Lock()
	f.n++
	n, fail, gate, data := f.n, f.fail, f.gate, f.data
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return upstream.Image{}, ctx.Err()
		}
	}
	if fail != nil {
		return upstream.Image{}, fail
	}
	b := []byte(nil)
	if data != nil {
		b = data(n)
	} else {
		b = jpegBytes(f.t, photo(uint64(n), 64, 48, 255), 82)
	}
	return upstream.Image{Data: b, MIME: "image/jpeg", Filename: fmt.Sprintf("cat%d.jpg", n), Width: 64, Height: 48}, nil
}

func (f *fakeFetcher) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

func (f *fakeFetcher) set(fn func(f *fakeFetcher)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

// manualTimer replaces a pool's time.AfterFunc: it records every wait asked
// for and runs the callback only when the test fires it.
type manualTimer struct {
	mu    sync.Mutex
	waits []time.Duration
	f     func()
}

func (m *manualTimer) after(d time.Duration, f func()) func() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.waits = append(m.waits, d)
	m.f = f
	return func() bool { return true }
}

// fire runs the pending callback, as the timer would.
func (m *manualTimer) fire(t *testing.T) {
	t.Helper()
	m.mu.Lock()
	f := m.f
	m.f = nil
	m.mu.Unlock()
	if f == nil {
		t.Fatal("no backoff pending")
	}
	f()
}

func (m *manualTimer) recorded() []time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]time.Duration(nil), m.waits...)
}

// testPool makes a started pool over f with a manual timer.
func testPool(t *testing.T, f *fakeFetcher, shrink Options, cfg PoolConfig) (*Pool, *manualTimer) {
	t.Helper()
	f.t = t
	return poolOver(t, mustSource(t, SourceConfig{Name: "cat", Fetcher: f, Shrink: shrink, Log: discardLog()}), cfg)
}

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
