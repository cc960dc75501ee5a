package e2e

import (
	"context"
	"flag"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// floodFrames is the size of one sender's flood.
const floodFrames = 20_000

// floodSenderQueue sets SENDER_QUEUE for the flood, to measure the bot without the cap
// side by side: go test -run TestSenderFlood -v ./e2e -args -flood-sender-queue=1000000
var floodSenderQueue = flag.String("flood-sender-queue", "", "SENDER_QUEUE of the flood test (default: the bot's default); a figure, not the test's bound")

// floodRun is what became of one flood.
type floodRun struct {
	before, peak int64 // the bot's RSS before the flood and its peak (VmHWM), bytes
	dropped      int64 // frames dropped by the sender queue
	otherServed  bool  // the other sender's !pomoc, sent mid-flood, was answered
}

// TestSenderFlood: 20,000 frames from one sender, each !kot in the test group. Sends take
// the live REST API's 300 ms, so the sender's frames arrive far faster than its turns come:
// with the default SENDER_QUEUE, 16 wait and the rest are dropped and counted, while
// another member's !pomoc, sent in the middle of the flood, is answered. The bot's RSS
// before and at its peak is logged: go test -run TestSenderFlood -v ./e2e
func TestSenderFlood(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	r := flood(t, bin, *floodSenderQueue)
	t.Logf("%d frames from one sender, SENDER_QUEUE %q (\"\" is the default): RSS %.1f MiB before, peak %.1f MiB; %d dropped by the sender queue",
		floodFrames, *floodSenderQueue, mib(r.before), mib(r.peak), r.dropped)
	if *floodSenderQueue != "" {
		return // a figure for comparison only
	}
	if r.dropped < floodFrames/2 || !r.otherServed {
		t.Errorf("dropped by the sender queue %d, other sender answered %v; want most of %d dropped and the other answered", r.dropped, r.otherServed, floodFrames)
	}
	// The frames held are bounded by count (17) and bytes, so the peak is the bot's
	// working set plus a few MiB, not 20,000 frames' goroutines, spans and buffers.
	if growth := r.peak - r.before; growth > 64<<20 {
		t.Errorf("RSS grew by %.1f MiB during the flood; want it bounded (under 64 MiB)", mib(growth))
	}
}

// flood runs one flood against a fresh bot; senderQueue "" keeps the default.
func flood(t *testing.T, bin, senderQueue string) floodRun {
	t.Helper()
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: sim.DefaultLatency().Send}})
	for k := range botest.LimitsOff() {
		delete(w.env, k) // the bot's own defaults
	}
	if senderQueue != "" {
		w.env["SENDER_QUEUE"] = senderQueue
	}
	p := startBot(t, bin, w.env)
	pid := p.cmd.Process.Pid
	var r floodRun
	r.before = procStatus(t, pid, "VmRSS")
	for i := range floodFrames {
		if i == floodFrames/2 {
			if _, err := w.sim.Deliver(sim.Message{From: botest.Member2, Group: "testbot", Text: "!pomoc"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.sim.Deliver(sim.Message{From: botest.Member, Group: "testbot", Text: "!kot"}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		h := p.health(t)
		num := func(k string) int64 { f, _ := h[k].(float64); return int64(f) }
		in := num("accepted") + num("dropped")
		if in == floodFrames+1 && num("active") == 0 && num("queue_depth") == 0 {
			r.dropped = num("dropped_sender_queue")
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("bot not idle after the flood: %v", h)
		case <-time.After(20 * time.Millisecond):
		}
	}
	r.peak = procStatus(t, pid, "VmHWM")
	for _, s := range w.sim.Sent() {
		r.otherServed = r.otherServed || strings.Contains(s.Message, "!pomoc")
	}
	return r
}
