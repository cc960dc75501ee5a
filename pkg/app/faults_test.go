package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// Faults of the websocket (issue 7, items 2 and 3). The upstream and send
// faults of item 5 are in upstream_faults_test.go; the process-level ones
// (SIGTERM, kill -9) in process_test.go.

// waitFor polls cond every 2 ms, at most 5,000 times and for at most 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; i < 5000 && time.Now().Before(deadline); i++ {
		if cond() {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// settle delivers a last !pomoc from a sender of its own, waits for its
// reply, then for the bot to finish everything it accepted: the socket
// delivers in order, so every frame before the sentinel has been accepted by
// then. It returns the bot's accepted count.
func settle(t *testing.T, h *botest.Harness, sentinel string) int {
	t.Helper()
	h.Say(sentinel, "", "!pomoc")
	waitFor(t, "the sentinel's reply", func() bool { return repliesTo(h.Sim.Sent())[sentinel] == 1 })
	accepted := int(h.Health()["accepted"].(float64))
	h.WaitIdle(accepted)
	return accepted
}

// repliesTo counts sends per recipient.
func repliesTo(sent []sim.Sent) map[string]int {
	n := map[string]int{}
	for _, s := range sent {
		n[s.Recipients[0]]++
	}
	return n
}

// The socket is killed twice in the middle of a burst. Frames offered while
// the bot has no socket are lost at the simulator, as on the real server
// (docs/wire-format.md §1); every frame the bot accepted is answered exactly once.
func TestBurstSurvivesSocketKills(t *testing.T) {
	const frames, senders = 300, 10
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"QUEUE_DEPTH": "1000"})
	h.Start()
	sender := func(i int) string { return fmt.Sprintf("+4872000%04d", i%senders) }
	offered := map[string]int{}
	var redials []chan time.Duration
	for i := range frames {
		if i == frames/3 || i == 2*frames/3 {
			if i > frames/3 {
				waitReconnected(h) // the second kill hits a live socket too
			}
			redials = append(redials, killSocket(h))
		}
		h.Say(sender(i), "", "!pomoc")
		offered[sender(i)]++
		time.Sleep(time.Millisecond) // a paced burst: some frames land while the socket is down
	}
	accepted := settle(t, h, "+48729999999")
	sent := h.Sim.Sent()
	if len(sent) != accepted {
		t.Errorf("%d replies to %d accepted frames; want one reply each", len(sent), accepted)
	}
	got := repliesTo(sent)
	for s, n := range offered {
		if got[s] > n {
			t.Errorf("%s got %d replies to %d frames", s, got[s], n)
		}
	}
	st := h.Sim.Stats()
	t.Logf("offered %d, lost at the simulator with no socket %d, accepted by the bot %d (sentinel included), answered %d",
		st.Offered, st.DroppedNoSubscriber, accepted, len(sent))
	for i, c := range redials {
		d := <-c
		if d < 0 {
			t.Fatalf("no new socket within 10 s of kill %d", i+1)
		}
		t.Logf("kill %d: new socket %v after the old one was killed", i+1, d.Round(time.Millisecond))
	}
}

// killSocket closes the bot's websocket and reports, on the returned
// channel, how long the bot took to open a new one (-1: not within 10 s).
func killSocket(h *botest.Harness) chan time.Duration {
	start := time.Now()
	h.Sim.Disconnect()
	done := make(chan time.Duration, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if h.Sim.WaitSubscribers(ctx, 1) != nil {
			done <- -1
			return
		}
		done <- time.Since(start)
	}()
	return done
}

// A frame that arrives twice (same sender and timestamp) is answered once,
// also across a reconnect; a different sender with the same timestamp is a
// different frame.
func TestDuplicateFrameAnsweredOnce(t *testing.T) {
	tests := []struct {
		name        string
		reconnect   bool
		second      string // sender of the repeat
		wantReplies int
	}{
		{"same socket", false, alice, 1},
		{"across a reconnect", true, alice, 1},
		{"other sender, same timestamp", true, bob, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := botest.New(t, sim.Config{Lossless: true}, nil)
			h.Start()
			ts := time.Now().UnixMilli()
			if _, err := h.Sim.Deliver(sim.Message{From: alice, Text: "!pomoc", Timestamp: ts}); err != nil {
				t.Fatal(err)
			}
			h.WaitSent(1)
			if tt.reconnect {
				h.Sim.Disconnect()
				waitReconnected(h)
			}
			if _, err := h.Sim.Deliver(sim.Message{From: tt.second, Text: "!pomoc", Timestamp: ts}); err != nil {
				t.Fatal(err)
			}
			if accepted := settle(t, h, "+48729999999"); accepted != 3 {
				t.Fatalf("accepted %d frames; want 3", accepted)
			}
			sent := h.Sim.Sent()
			if got := len(sent) - 1; got != tt.wantReplies { // minus the sentinel's
				t.Errorf("%d replies to the two frames; want %d", got, tt.wantReplies)
			}
			dup := strings.Contains(h.Logs.String(), "duplicate frame skipped")
			if dup != (tt.wantReplies == 1) {
				t.Errorf("log says duplicate skipped: %v; want %v", dup, tt.wantReplies == 1)
			}
		})
	}
}

// A half-open socket (TCP open, no frames, no pings) is found by the read
// deadline and redialled; a quiet socket that the server keeps pinging is not.
func TestHalfOpenSocketRedialled(t *testing.T) {
	const readTimeout = time.Second
	h := botest.New(t, sim.Config{Lossless: true, PingInterval: 50 * time.Millisecond},
		map[string]string{"WS_READ_TIMEOUT": readTimeout.String()})
	h.Start()
	h.Say(alice, "", "!pomoc")
	h.WaitSent(1)
	time.Sleep(2 * readTimeout) // idle, but pinged 20 times per deadline: no redial
	if got := value(scrape(t, h), "signal_bot_websocket_reconnects_total", nil); got != 0 {
		t.Fatalf("%v reconnects while the server kept pinging; want 0", got)
	}

	start := time.Now()
	if n := h.Sim.Freeze(); n != 1 {
		t.Fatalf("froze %d connections; want 1", n)
	}
	waitFor(t, "a redial", func() bool { return value(scrape(t, h), "signal_bot_websocket_reconnects_total", nil) == 1 })
	t.Logf("half-open socket redialled %v after it went silent (WS_READ_TIMEOUT %v)", time.Since(start).Round(time.Millisecond), readTimeout)
	if !strings.Contains(h.Logs.String(), "i/o timeout") {
		t.Errorf("no read timeout in the log; the socket was not dropped by its deadline:\n%s", h.Logs)
	}
	waitReconnected(h)
	h.Say(bob, "", "!pomoc")
	if got := h.WaitSent(2)[1]; got.Recipients[0] != bob {
		t.Errorf("reply after the redial went to %v; want bob", got.Recipients)
	}
}
