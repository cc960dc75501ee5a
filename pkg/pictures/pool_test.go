package pictures

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"signal-bot/internal/testkit"
)

var shrinkOn = testOptions()

// The pool fills on start, and every take, hit or miss, starts a refill.
func TestTakeTriggersRefill(t *testing.T) {
	f := &fakeFetcher{}
	p, _ := testPool(t, f, shrinkOn, testPoolConfig())
	testkit.WaitFor(t, "the pool to fill", func() bool { return p.Stats().Ready == 2 })
	if got := f.calls(); got != 2 {
		t.Fatalf("upstream calls after filling = %d; want 2", got)
	}
	if _, err := p.Picture(context.Background()); err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, "the refill", func() bool { s := p.Stats(); return s.Ready == 2 && s.Refills == 3 })
	s := p.Stats()
	if s.Hits != 1 || s.Misses != 0 || f.calls() != 3 {
		t.Errorf("hits %d, misses %d, upstream calls %d; want 1, 0, 3", s.Hits, s.Misses, f.calls())
	}
}

// An empty pool fetches inline, counts the miss and still shrinks and checks
// the picture; an inline picture that does not decode is an error.
func TestMissFallsBackInline(t *testing.T) {
	tests := []struct {
		name    string
		data    func(int) []byte
		wantErr error
	}{
		{"good picture", nil, nil},
		{"picture that does not decode", func(int) []byte { return []byte("\xff\xd8\xff\xe0 truncated") }, ErrUndecodable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeFetcher{fail: errFake}
			p, _ := testPool(t, f, shrinkOn, testPoolConfig(func(c *PoolConfig) { c.Size, c.Concurrency = 1, 1 }))
			testkit.WaitFor(t, "the first refill to fail", func() bool { return p.Stats().BackingOff })
			f.set(func(f *fakeFetcher) { f.fail, f.data = nil, tt.data })
			pic, err := p.Picture(context.Background())
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Picture error = %v; want %v", err, tt.wantErr)
			}
			if err == nil && (pic.MIME != "image/jpeg" || pic.Bytes == 0) {
				t.Errorf("Picture = %s of %d bytes; want a JPEG", pic.MIME, pic.Bytes)
			}
			s := p.Stats()
			if s.Misses != 1 || s.Hits != 0 || f.calls() != 2 {
				t.Errorf("misses %d, hits %d, upstream calls %d; want 1, 0, 2 (the failed refill and the inline fetch)",
					s.Misses, s.Hits, f.calls())
			}
		})
	}
}

// Refills that fail wait, doubling up to the cap, and retry only when the
// wait is over: takes during a backoff fetch inline but start no refill.
func TestFailuresBackOff(t *testing.T) {
	f := &fakeFetcher{fail: errFake}
	p, timer := testPool(t, f, shrinkOn, testPoolConfig(func(c *PoolConfig) { c.Size, c.BackoffMin, c.BackoffMax = 3, time.Second, 8*time.Second }))
	settled := func() bool { s := p.Stats(); return s.InFlight == 0 && s.BackingOff }
	testkit.WaitFor(t, "the first refills to fail", settled)
	if got := f.calls(); got != 2 {
		t.Fatalf("upstream calls = %d; want 2 (Concurrency)", got)
	}
	for range 5 {
		if _, err := p.Picture(context.Background()); !errors.Is(err, errFake) {
			t.Fatalf("Picture error = %v; want the upstream's", err)
		}
	}
	if got := f.calls(); got != 7 {
		t.Errorf("upstream calls after 5 takes while backing off = %d; want 7 (5 inline, no refill)", got)
	}
	for range 4 {
		timer.fire(t)
		testkit.WaitFor(t, "the retries to fail", settled)
	}
	want := []time.Duration{1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}
	if got := timer.recorded(); !equalDurations(got, want) {
		t.Errorf("backoff waits = %v; want %v", got, want)
	}
	if got, s := f.calls(), p.Stats(); got != 7+4*2 || s.RefillErrors != 10 {
		t.Errorf("upstream calls %d, refill errors %d; want 15, 10", got, s.RefillErrors)
	}
	f.set(func(f *fakeFetcher) { f.fail = nil })
	timer.fire(t)
	testkit.WaitFor(t, "the pool to fill after recovery", func() bool { return p.Stats().Ready == 3 })
	if s := p.Stats(); s.BackingOff || s.Failures != 0 {
		t.Errorf("after recovery backing off %v, failures %d; want false, 0", s.BackingOff, s.Failures)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A picture that does not decode never enters the pool and is never served.
func TestUndecodableIsDropped(t *testing.T) {
	f := &fakeFetcher{data: func(int) []byte { return []byte("\xff\xd8\xff\xe0 not really a JPEG") }}
	for _, shrink := range []Options{shrinkOn, testOptions(shrinkOff)} {
		p, _ := testPool(t, f, shrink, testPoolConfig())
		testkit.WaitFor(t, "the refills to be rejected", func() bool { s := p.Stats(); return s.InFlight == 0 && s.BackingOff })
		if s := p.Stats(); s.Ready != 0 || s.Rejected != 2 || s.RefillErrors != 2 {
			t.Errorf("shrink %+v: ready %d, rejected %d, refill errors %d; want 0, 2, 2", shrink, s.Ready, s.Rejected, s.RefillErrors)
		}
	}
}

// However many takes run at once, the ready pictures never exceed Size or
// MaxBytes, and no picture is served twice.
func TestBoundsUnderManyTakes(t *testing.T) {
	f := &fakeFetcher{}
	probe, err := mustSource(t, SourceConfig{Name: "cat", Fetcher: &fakeFetcher{t: t}, Shrink: shrinkOn, Log: discardLog()}).Picture(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	maxBytes := int64(len(probe.DataURI)) * 5 / 2 // room for two pictures, not three
	p, _ := testPool(t, f, shrinkOn, testPoolConfig(func(c *PoolConfig) { c.Size, c.Concurrency, c.MaxBytes = 5, 3, maxBytes }))
	var (
		mu   sync.Mutex
		seen = map[string]bool{}
		wg   sync.WaitGroup
	)
	check := func() {
		if s := p.Stats(); s.HeldBytes > s.MaxBytes || s.Ready > s.Size || s.InFlight > 3 {
			t.Errorf("held %d of %d bytes, ready %d of %d, in flight %d of 3", s.HeldBytes, s.MaxBytes, s.Ready, s.Size, s.InFlight)
		}
	}
	for range 4 {
		wg.Go(func() {
			for range 50 {
				pic, err := p.Picture(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if seen[pic.DataURI] {
					t.Errorf("picture %s served twice", pic.Filename)
				}
				seen[pic.DataURI] = true
				mu.Unlock()
				check()
			}
		})
	}
	wg.Wait()
	testkit.WaitFor(t, "the refills to settle", func() bool { return p.Stats().InFlight == 0 })
	check()
	if s := p.Stats(); s.Hits+s.Misses != 200 {
		t.Errorf("hits %d + misses %d; want 200 takes", s.Hits, s.Misses)
	}
}

// A picture larger than the whole budget is discarded, and the pool backs
// off instead of fetching again at once.
func TestOversizedIsDiscarded(t *testing.T) {
	f := &fakeFetcher{}
	p, timer := testPool(t, f, shrinkOn, testPoolConfig(func(c *PoolConfig) { c.Concurrency, c.MaxBytes = 1, 100 }))
	testkit.WaitFor(t, "the discard", func() bool { s := p.Stats(); return s.InFlight == 0 && s.BackingOff })
	if s := p.Stats(); s.Discarded != 1 || s.Ready != 0 || s.HeldBytes != 0 || f.calls() != 1 {
		t.Errorf("discarded %d, ready %d, held %d, calls %d; want 1, 0, 0, 1", s.Discarded, s.Ready, s.HeldBytes, f.calls())
	}
	if got := len(timer.recorded()); got != 1 {
		t.Errorf("%d backoffs; want 1", got)
	}
}

// Close ends refills that hang upstream and waits for them.
func TestCloseStopsRefills(t *testing.T) {
	f := &fakeFetcher{gate: make(chan struct{})}
	f.t = t
	src := mustSource(t, SourceConfig{Name: "cat", Fetcher: f, Shrink: shrinkOn, Log: discardLog()})
	p := NewPool(context.Background(), src, testPoolConfig(func(c *PoolConfig) { c.Size, c.Log = 3, discardLog() }))
	testkit.WaitFor(t, "the refills to hang", func() bool { return f.calls() == 2 })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if s := p.Stats(); s.InFlight != 0 || s.RefillErrors != 0 {
		t.Errorf("after Close: in flight %d, refill errors %d; want 0, 0", s.InFlight, s.RefillErrors)
	}
}
