package pictures

import (
	"context"
	"sync/atomic"
	"testing"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/upstream"
)

// panicFetcher panics in every call, as a bug in an upstream client or a
// decoder would.
type panicFetcher struct{ calls atomic.Int64 }

func (f *panicFetcher) Random(context.Context) (upstream.Image, error) {
	f.calls.Add(1)
	panic("boom in a fetch")
}

// A refill that panics is a failed refill: counted by Panicked and as a
// refill error, and the pool backs off as after any failure; the process
// lives on.
func TestRefillPanicIsAFailure(t *testing.T) {
	f := &panicFetcher{}
	var panicked atomic.Int64
	src := mustSource(t, SourceConfig{Name: "cat", Fetcher: f, Shrink: shrinkOn, Log: discardLog()})
	p, _ := poolOver(t, src, testPoolConfig(func(c *PoolConfig) {
		c.Size, c.Concurrency = 2, 2
		c.Panicked = func() { panicked.Add(1) }
	}))
	testkit.WaitFor(t, "the refills to fail", func() bool { s := p.Stats(); return s.InFlight == 0 && s.BackingOff })
	if s := p.Stats(); s.RefillErrors != 2 || panicked.Load() != 2 || f.calls.Load() != 2 {
		t.Errorf("refill errors %d, panics %d, calls %d; want 2 each", s.RefillErrors, panicked.Load(), f.calls.Load())
	}
}
