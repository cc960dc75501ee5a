package bot_test

import (
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// A frame that arrives twice (same sender and timestamp) is answered once,
// also across a reconnect; a different sender with the same timestamp is a
// different frame.
func TestDuplicateFrameAnsweredOnce(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		reconnect   bool
		second      string // sender of the repeat
		wantReplies int
	}{
		{"same socket", false, botest.Alice, 1},
		{"across a reconnect", true, botest.Alice, 1},
		{"other sender, same timestamp", true, botest.Bob, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := botest.New(t, sim.Config{Lossless: true}, nil)
			h.Start()
			ts := time.Now().UnixMilli()
			if _, err := h.Sim.Deliver(sim.Message{From: botest.Alice, Text: "!pomoc", Timestamp: ts}); err != nil {
				t.Fatal(err)
			}
			h.WaitSent(1)
			if tt.reconnect {
				h.Sim.Disconnect()
				h.WaitReconnected()
			}
			if _, err := h.Sim.Deliver(sim.Message{From: tt.second, Text: "!pomoc", Timestamp: ts}); err != nil {
				t.Fatal(err)
			}
			if accepted := h.Settle("+48729999999"); accepted != 3 {
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
