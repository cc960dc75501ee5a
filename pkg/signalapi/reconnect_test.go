package signalapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// The simulator closes the socket: the bot redials and answers what comes after.
func TestReconnectAfterSocketClosed(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	for round := 1; round <= 3; round++ {
		h.Sim.Disconnect()
		h.WaitReconnected()
		h.Say(botest.Alice, "", "!pomoc")
		h.WaitSent(round)
	}
}

// Faults of the websocket (issue 7, items 2 and 3). The upstream and send
// faults of item 5 are in upstream_faults_test.go; the process-level ones
// (SIGTERM, kill -9) in process_test.go.

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
				h.WaitReconnected() // the second kill hits a live socket too
			}
			redials = append(redials, killSocket(h))
		}
		h.Say(sender(i), "", "!pomoc")
		offered[sender(i)]++
		time.Sleep(time.Millisecond) // a paced burst: some frames land while the socket is down
	}
	accepted := h.Settle("+48729999999")
	sent := h.Sim.Sent()
	if len(sent) != accepted {
		t.Errorf("%d replies to %d accepted frames; want one reply each", len(sent), accepted)
	}
	got := botest.RepliesTo(sent)
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

// A half-open socket (TCP open, no frames, no pings) is found by the read
// deadline and redialled; a quiet socket that the server keeps pinging is not.
func TestHalfOpenSocketRedialled(t *testing.T) {
	const readTimeout = time.Second
	h := botest.New(t, sim.Config{Lossless: true, PingInterval: 50 * time.Millisecond},
		map[string]string{"WS_READ_TIMEOUT": readTimeout.String()})
	h.Start()
	h.Say(botest.Alice, "", "!pomoc")
	h.WaitSent(1)
	time.Sleep(2 * readTimeout) // idle, but pinged 20 times per deadline: no redial
	if got := botest.Value(h.Scrape(), "signal_bot_websocket_reconnects_total", nil); got != 0 {
		t.Fatalf("%v reconnects while the server kept pinging; want 0", got)
	}

	start := time.Now()
	if n := h.Sim.Freeze(); n != 1 {
		t.Fatalf("froze %d connections; want 1", n)
	}
	testkit.WaitFor(t, "a redial", func() bool { return botest.Value(h.Scrape(), "signal_bot_websocket_reconnects_total", nil) == 1 })
	t.Logf("half-open socket redialled %v after it went silent (WS_READ_TIMEOUT %v)", time.Since(start).Round(time.Millisecond), readTimeout)
	if !strings.Contains(h.Logs.String(), "i/o timeout") {
		t.Errorf("no read timeout in the log; the socket was not dropped by its deadline:\n%s", h.Logs)
	}
	h.WaitReconnected()
	h.Say(botest.Bob, "", "!pomoc")
	if got := h.WaitSent(2)[1]; got.Recipients[0] != botest.Bob {
		t.Errorf("reply after the redial went to %v; want bob", got.Recipients)
	}
}
