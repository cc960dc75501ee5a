package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace/noop"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func start(t *testing.T, cfg Config, h Handler) *Pipeline {
	t.Helper()
	p := New(cfg, noop.NewTracerProvider(), h)
	go p.Run()
	t.Cleanup(func() {
		p.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p.Wait(ctx)
	})
	return p
}

func TestLimitBoundsConcurrentTasks(t *testing.T) {
	const limit, frames = 4, 50
	var active, peak atomic.Int64
	var done sync.WaitGroup
	done.Add(frames)
	p := start(t, Config{Limit: limit, QueueDepth: frames}, func(ctx context.Context, f *Frame, s *Slot) {
		defer done.Done()
		n := active.Add(1)
		for old := peak.Load(); n > old && !peak.CompareAndSwap(old, n); old = peak.Load() {
		}
		time.Sleep(time.Millisecond) // slow frames: the slots fill up
		active.Add(-1)
	})
	for range frames {
		if _, err := p.Offer([]byte("x"), time.Now(), false); err != nil {
			t.Fatal(err)
		}
	}
	done.Wait()
	if got := peak.Load(); got > limit || got < 1 {
		t.Errorf("peak concurrent tasks = %d; want 1..%d", got, limit)
	}
	if got := p.Stats().Accepted; got != frames {
		t.Errorf("accepted = %d; want %d", got, frames)
	}
}

func TestFullQueueDropsAndCounts(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	p := start(t, Config{Limit: 1, QueueDepth: 2}, func(ctx context.Context, f *Frame, s *Slot) {
		started <- struct{}{}
		<-release
	})
	if _, err := p.Offer([]byte("1"), time.Now(), false); err != nil {
		t.Fatal(err)
	}
	<-started // the only slot is busy; the next two wait, the third is dropped
	var errs []error
	for range 3 {
		_, err := p.Offer([]byte("x"), time.Now(), false)
		errs = append(errs, err)
	}
	if errs[0] != nil || errs[1] != nil || !errors.Is(errs[2], ErrFull) {
		t.Errorf("offers = %v; want nil, nil, ErrFull", errs)
	}
	if got := p.Stats().Dropped; got != 1 {
		t.Errorf("dropped = %d; want 1", got)
	}
	close(release)
	for range 2 {
		<-started
	}
}

func TestSlotWaitLetsOthersRun(t *testing.T) {
	gate := make(chan struct{})
	ran := make(chan string, 2)
	p := start(t, Config{Limit: 1, QueueDepth: 4}, func(ctx context.Context, f *Frame, s *Slot) {
		if string(f.Raw) == "waiter" {
			if err := s.Wait(ctx, func() error { <-gate; return nil }); err != nil {
				t.Error(err)
			}
		}
		ran <- string(f.Raw)
	})
	p.Offer([]byte("waiter"), time.Now(), false)
	p.Offer([]byte("other"), time.Now(), false)
	if got := <-ran; got != "other" {
		t.Fatalf("first to finish = %q; want other (the waiter gave its slot up)", got)
	}
	close(gate)
	if got := <-ran; got != "waiter" {
		t.Fatalf("second = %q; want waiter", got)
	}
}

func TestCloseFinishesQueuedFrames(t *testing.T) {
	var handled atomic.Int64
	p := New(Config{Limit: 2, QueueDepth: 100}, noop.NewTracerProvider(), func(ctx context.Context, f *Frame, s *Slot) {
		handled.Add(1)
	})
	for range 100 {
		p.Offer([]byte("x"), time.Now(), false)
	}
	go p.Run()
	p.Close()
	if _, err := p.Offer([]byte("late"), time.Now(), false); !errors.Is(err, ErrClosed) {
		t.Errorf("Offer after Close = %v; want ErrClosed", err)
	}
	if cut := p.Wait(context.Background()); cut != 0 || handled.Load() != 100 {
		t.Errorf("cut off %d, handled %d; want 0, 100", cut, handled.Load())
	}
}

func TestWaitCutsOffAtDeadline(t *testing.T) {
	p := New(Config{Limit: 1, QueueDepth: 10}, noop.NewTracerProvider(), func(ctx context.Context, f *Frame, s *Slot) {
		<-ctx.Done() // a hung handler: only the hard stop ends it
	})
	go p.Run()
	for range 3 {
		p.Offer([]byte("x"), time.Now(), false)
	}
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if cut := p.Wait(ctx); cut != 3 {
		t.Errorf("cut off = %d; want 3 (1 running + 2 queued)", cut)
	}
}

func TestTurnsKeepEachSendersOrder(t *testing.T) {
	const perSender = 20
	var mu sync.Mutex
	got := map[string][]string{}
	var done sync.WaitGroup
	done.Add(3 * perSender)
	p := start(t, Config{Limit: 4, QueueDepth: 100, Decode: func(raw []byte) (string, any) { return string(raw[:1]), len(raw) }},
		func(ctx context.Context, f *Frame, s *Slot) {
			defer done.Done()
			if err := s.Turn(ctx, f); err != nil {
				t.Error(err)
				return
			}
			if !s.Held() {
				t.Error("Turn returned without a slot")
			}
			if f.Msg != len(f.Raw) {
				t.Errorf("frame %s carries %v; want what Decode returned, %d", f.Raw, f.Msg, len(f.Raw))
			}
			mu.Lock()
			got[f.Key] = append(got[f.Key], string(f.Raw))
			mu.Unlock()
		})
	for i := range perSender {
		for _, sender := range []string{"a", "b", "c"} {
			p.Offer([]byte(fmt.Sprintf("%s%02d", sender, i)), time.Now(), false)
		}
	}
	done.Wait()
	for sender, frames := range got {
		for i, f := range frames {
			if want := fmt.Sprintf("%s%02d", sender, i); f != want {
				t.Fatalf("sender %s frame %d = %s; want %s (order kept)", sender, i, f, want)
			}
		}
	}
	// A turn ends after its handler returns: wait for the tasks themselves.
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if cut := p.Wait(ctx); cut != 0 {
		t.Fatalf("%d frames cut off", cut)
	}
	if n := p.turns.len(); n != 0 {
		t.Errorf("turns left after all frames: %d; want 0", n)
	}
}
