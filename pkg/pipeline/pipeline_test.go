package pipeline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// handler is the tests' work for an item: the item is a string whose key
// is its first byte, or none when it starts with '-' (an item that takes no
// turn). It runs once it is the item's turn.
type handler func(ctx context.Context, s *Slot, msg string)

// keyOf is the key of a test item.
func keyOf(raw string) string {
	if raw == "" || raw[0] == '-' {
		return ""
	}
	return raw[:1]
}

// fn is Run's fn for h: it waits for the item's turn, then runs h; an item
// whose turn does not come in time is not run.
func (h handler) fn(ctx context.Context, s *Slot, msg string) {
	if err := s.AwaitTurn(ctx); err != nil {
		return
	}
	h(ctx, s, msg)
}

// testConfig is a complete Config with limit slots and a FIFO of depth; the
// sizes the tests do not care about are set high enough not to matter.
func testConfig(limit, depth int) Config {
	return Config{Limit: limit, QueueDepth: depth, FrameTimeout: time.Minute, SenderQueue: 1 << 10, QueueBytes: 1 << 30}
}

func newPipeline(t *testing.T, cfg Config) *Pipeline[string] {
	t.Helper()
	return New[string](cfg)
}

func start(t *testing.T, cfg Config, h handler) *Pipeline[string] {
	t.Helper()
	p := newPipeline(t, cfg)
	go p.Run(h.fn)
	t.Cleanup(func() {
		p.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p.Wait(ctx)
	})
	return p
}

// push pushes raw under its key and size.
func push(p *Pipeline[string], raw string) error { return p.Push(keyOf(raw), len(raw), raw) }

func offer(t *testing.T, p *Pipeline[string], raw string) {
	t.Helper()
	if err := push(p, raw); err != nil {
		t.Fatalf("Push(%s): %v", raw, err)
	}
}

// peak tracks the most tasks seen at once.
type peak struct{ now, max atomic.Int64 }

func (p *peak) enter() {
	n := p.now.Add(1)
	for old := p.max.Load(); n > old && !p.max.CompareAndSwap(old, n); old = p.max.Load() {
	}
}

func (p *peak) leave() { p.now.Add(-1) }

// LIMIT bounds the handlers running with a slot, whether frames take turns or
// not, and whether handlers give their slot up in WaitOutside or not.
func TestLimitNeverExceeded(t *testing.T) {
	const limit, frames = 4, 60
	tests := []struct {
		name    string
		frame   func(i int) string
		outside bool // each handler also waits in WaitOutside
	}{
		{"no turns", func(i int) string { return fmt.Sprintf("-%02d", i) }, false},
		{"three senders", func(i int) string { return fmt.Sprintf("%c%02d", 'a'+i%3, i) }, false},
		{"many senders", func(i int) string { return fmt.Sprintf("%c%02d", 'a'+i%20, i) }, false},
		{"three senders, waiting outside", func(i int) string { return fmt.Sprintf("%c%02d", 'a'+i%3, i) }, true},
		{"no turns, waiting outside", func(i int) string { return fmt.Sprintf("-%02d", i) }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pk peak
			var done sync.WaitGroup
			done.Add(frames)
			p := start(t, testConfig(limit, frames), func(ctx context.Context, s *Slot, msg string) {
				defer done.Done()
				pk.enter()
				time.Sleep(200 * time.Microsecond) // slow frames: the slots fill up
				pk.leave()
				if tt.outside {
					if err := s.WaitOutside(ctx, func() error { time.Sleep(time.Millisecond); return nil }); err != nil {
						t.Error(err)
					}
					pk.enter()
					time.Sleep(200 * time.Microsecond)
					pk.leave()
				}
			})
			for i := range frames {
				offer(t, p, tt.frame(i))
			}
			done.Wait()
			if got := pk.max.Load(); got > limit || got < 1 {
				t.Errorf("peak concurrent handlers = %d; want 1..%d", got, limit)
			}
			if got := p.Stats().Accepted; got != frames {
				t.Errorf("accepted = %d; want %d", got, frames)
			}
		})
	}
}

func TestFullQueueDropsAndCounts(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	p := start(t, testConfig(1, 2), func(ctx context.Context, s *Slot, msg string) {
		started <- struct{}{}
		<-release
	})
	offer(t, p, "-1")
	<-started // the only slot is busy; the next two wait, the third is dropped
	var errs []error
	for range 3 {
		errs = append(errs, push(p, "-x"))
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

// A handler waiting in WaitOutside holds no slot: with LIMIT 1, another frame
// runs meanwhile.
func TestWaitOutsideLetsOthersRun(t *testing.T) {
	gate := make(chan struct{})
	ran := make(chan string, 2)
	p := start(t, testConfig(1, 4), func(ctx context.Context, s *Slot, msg string) {
		if msg == "waiter" {
			if err := s.WaitOutside(ctx, func() error { <-gate; return nil }); err != nil {
				t.Error(err)
			}
		}
		ran <- msg
	})
	offer(t, p, "waiter")
	offer(t, p, "other")
	if got := <-ran; got != "other" {
		t.Fatalf("first to finish = %q; want other (the waiter gave its slot up)", got)
	}
	close(gate)
	if got := <-ran; got != "waiter" {
		t.Fatalf("second = %q; want waiter", got)
	}
}

// Outside a pipeline task (a nil Slot) WaitOutside just waits, and returns
// wait's error.
func TestWaitOutsideWithoutTask(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name string
		err  error
	}{{"ok", nil}, {"error", boom}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := false
			var s *Slot
			err := s.WaitOutside(context.Background(), func() error { ran = true; return tt.err })
			if !ran || !errors.Is(err, tt.err) {
				t.Errorf("ran %v, err %v; want true, %v", ran, err, tt.err)
			}
		})
	}
}

func TestCloseFinishesQueuedFrames(t *testing.T) {
	var handled atomic.Int64
	p := newPipeline(t, testConfig(2, 100))
	h := handler(func(ctx context.Context, s *Slot, msg string) {
		handled.Add(1)
	})
	for i := range 100 {
		offer(t, p, fmt.Sprintf("%c%02d", 'a'+i%5, i))
	}
	go p.Run(h.fn)
	p.Close()
	if err := push(p, "late"); !errors.Is(err, ErrClosed) {
		t.Errorf("Push after Close = %v; want ErrClosed", err)
	}
	if cut := p.Wait(context.Background()); cut != 0 || handled.Load() != 100 {
		t.Errorf("cut off %d, handled %d; want 0, 100", cut, handled.Load())
	}
}

func TestWaitCutsOffAtDeadline(t *testing.T) {
	p := newPipeline(t, testConfig(1, 10))
	stopped := make(chan bool, 3)
	go p.Run(func(ctx context.Context, s *Slot, msg string) {
		<-ctx.Done() // a hung handler: only the hard stop ends it
		stopped <- s.Stopped()
	})
	for range 3 {
		offer(t, p, "-x")
	}
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if cut := p.Wait(ctx); cut != 3 {
		t.Errorf("cut off = %d; want 3 (1 running + 2 queued)", cut)
	}
	for i := range 3 { // the queued ones too are handed over, stopped
		if !<-stopped {
			t.Errorf("item %d: Slot.Stopped = false after the hard stop; want true", i)
		}
	}
}

// Each sender's frames reach the handler one at a time and in arrival order;
// frames without a key take no turn.
func TestTurnsKeepEachSendersOrder(t *testing.T) {
	const perSender = 20
	senders := []string{"a", "b", "c", "-"}
	var mu sync.Mutex
	got := map[string][]string{}
	running := map[string]int{}
	var done sync.WaitGroup
	done.Add(len(senders) * perSender)
	p := start(t, testConfig(4, 100), func(ctx context.Context, s *Slot, msg string) {
		defer done.Done()
		key := msg[:1]
		mu.Lock()
		running[key]++
		if running[key] > 1 && key != "-" {
			t.Errorf("two frames of sender %s in the handler at once", key)
		}
		got[key] = append(got[key], msg)
		mu.Unlock()
		time.Sleep(100 * time.Microsecond)
		mu.Lock()
		running[key]--
		mu.Unlock()
	})
	for i := range perSender {
		for _, sender := range senders {
			offer(t, p, fmt.Sprintf("%s%02d", sender, i))
		}
	}
	done.Wait()
	for _, sender := range senders[:3] {
		frames := got[sender]
		if len(frames) != perSender {
			t.Fatalf("sender %s: %d frames handled; want %d", sender, len(frames), perSender)
		}
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

// A frame waiting for its sender's turn holds no slot: with LIMIT 2, a1 runs,
// a2 waits for a1, and b1 runs meanwhile in the slot a2 gave up.
func TestTurnWaitGivesTheSlotUp(t *testing.T) {
	release := make(chan struct{})
	ran := make(chan string, 3)
	p := start(t, testConfig(2, 10), func(ctx context.Context, s *Slot, msg string) {
		if msg == "a1" {
			<-release
		}
		ran <- msg
	})
	for _, raw := range []string{"a1", "a2", "b1"} {
		offer(t, p, raw)
	}
	if got := <-ran; got != "b1" {
		t.Fatalf("first to finish = %s; want b1 (a2 waits for its turn without a slot)", got)
	}
	close(release)
	for _, want := range []string{"a1", "a2"} {
		if got := <-ran; got != want {
			t.Errorf("next = %s; want %s", got, want)
		}
	}
}

// A frame whose turn does not come before its deadline is not handled:
// AwaitTurn waits at least the frame timeout, without its slot, and then
// fails; a frame without a key and the one that holds the turn run. (The
// queue and sender.turn spans around this wait are the bot's: its
// TestIntakeSpans.)
func TestTurnDeadline(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	var mu sync.Mutex
	handled := map[string]bool{}
	waited := map[string]time.Duration{}
	cfg := testConfig(2, 10)
	cfg.FrameTimeout = 100 * time.Millisecond
	p := newPipeline(t, cfg)
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		p.Run(func(ctx context.Context, s *Slot, msg string) {
			t0 := time.Now()
			err := s.AwaitTurn(ctx)
			mu.Lock()
			waited[msg] = time.Since(t0)
			mu.Unlock()
			if err != nil {
				return
			}
			mu.Lock()
			handled[msg] = true
			mu.Unlock()
			if msg == "a1" {
				started <- struct{}{}
				<-release
			}
		})
	}()
	for _, raw := range []string{"a1", "a2", "-1"} { // a2 waits for a1, which outlives a2's deadline; -1 takes no turn
		offer(t, p, raw)
		if raw == "a1" {
			<-started
		}
	}
	time.Sleep(300 * time.Millisecond)
	close(release)
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p.Wait(ctx)
	<-ran
	for _, want := range []string{"a1", "-1"} {
		if !handled[want] {
			t.Errorf("%s was not handled", want)
		}
	}
	if handled["a2"] {
		t.Errorf("a2 was handled; its turn came after its deadline")
	}
	if waited["a2"] < cfg.FrameTimeout {
		t.Errorf("a2 waited %v for its turn; want at least the frame timeout %v", waited["a2"], cfg.FrameTimeout)
	}
}
