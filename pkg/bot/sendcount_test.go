package bot_test

import (
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// What one picture reply costs in Signal messages, as the simulator counts
// them: the reply itself, reactions and typing calls (each a message to
// Signal), for a quick send and for a send of 40 s under the default
// TYPING_REFRESH of 10 s, and for a repeat refused inside the cooldown. The
// figures are logged (go test -run TestSendsPerPictureReply -v) and held to
// what each setting promises. The 40 s rows are scaled down tenfold, a send
// of 4 s with TYPING_REFRESH=1s: the same refreshes in a tenth of the time
// (TestTypingRefreshed ticks the refresh's logic on a clock of its own).
func TestSendsPerPictureReply(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		send      time.Duration // the simulator's latency of /v2/send
		env       map[string]string
		kots      int // !kot from one member, back to back
		wantSends int
		minTyping int
		maxTyping int
		wantReact int64
	}{
		{"quick send", 0, nil, 1, 1, 2, 2, 0},
		{"send of 40 s", 4 * time.Second, map[string]string{"TYPING_REFRESH": "1s"}, 1, 1, 2 + 3, 2 + 4, 0},
		{"send of 40 s, TYPING=off", 4 * time.Second, map[string]string{"TYPING_REFRESH": "1s", "TYPING": "off"}, 1, 1, 0, 0, 0},
		{"refused repeat, REACTIONS=off", 0, nil, 2, 2, 2, 2, 0},
		{"refused repeat, REACTIONS=on", 0, map[string]string{"REACTIONS": "on"}, 2, 1, 2, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lat := sim.ZeroLatency()
			lat.Send = tt.send
			env := map[string]string{"UPSTREAM_TIMEOUT": "60s", "SEND_TIMEOUT": "90s"}
			for k, v := range tt.env {
				env[k] = v
			}
			h := botest.New(t, sim.Config{Lossless: true, Latency: lat}, env)
			h.Start()
			for range tt.kots {
				h.Say(botest.Alice, "testbot", "!kot")
			}
			h.WaitSent(1)
			h.WaitIdle(tt.kots)
			h.Stop() // the typing indicator is cleared before Stop returns
			typings := h.Sim.Typings()
			sends, typing, reactions := len(h.Sim.Sent()), len(typings), h.Sim.Stats().Reactions
			t.Logf("%s: %d messages, %d reactions, %d typing calls: %d in all", tt.name, sends, reactions, typing, sends+int(reactions)+typing)
			// The picture's fetch and shrink come before the send: on a loaded
			// machine they take seconds, and the indicator is refreshed
			// through them too, one refresh a TYPING_REFRESH.
			maxTyping := tt.maxTyping
			if refresh, err := time.ParseDuration(env["TYPING_REFRESH"]); err == nil && len(typings) > 1 {
				maxTyping = max(maxTyping, 2+int(typings[len(typings)-1].At.Sub(typings[0].At)/refresh))
			}
			if sends != tt.wantSends || reactions != tt.wantReact || typing < tt.minTyping || typing > maxTyping {
				t.Errorf("%d messages, %d reactions, %d typing calls; want %d, %d, %d to %d", sends, reactions, typing, tt.wantSends, tt.wantReact, tt.minTyping, maxTyping)
			}
		})
	}
}
