package outbound

import (
	"testing"
	"time"
)

func TestSpareTyping(t *testing.T) {
	tests := []struct {
		name    string
		replies int  // replies reserved in chat "a" before asking
		paused  bool // a 429 pause is on
		budget  bool
		want    bool
	}{
		{name: "full bucket", budget: true, want: true},
		{name: "half left after it", replies: 1, budget: true, want: true},   // 6-1-2 = 3, half of 6
		{name: "under half after it", replies: 2, budget: true, want: false}, // 6-2-2 = 2
		{name: "budget off", replies: 5, want: true},
		{name: "paused", paused: true, budget: true, want: false},
		{name: "paused, budget off", paused: true, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := typingGate()
			g.cfg.Budget = tt.budget
			for range tt.replies {
				g.Reserve("a", 0, t0)
			}
			if tt.paused {
				g.RateLimited(t0, time.Minute, nil)
			}
			if got := g.SpareTyping("a", t0); got != tt.want {
				t.Errorf("SpareTyping = %v; want %v", got, tt.want)
			}
		})
	}
}

// typingGate has 6 sends per chat, one back per second.
func typingGate() *Gate {
	g := testGate()
	g.cfg.ChatN, g.cfg.ChatPer = 6, 6*time.Second
	return g
}

// A spared indicator takes its two tokens: the reply after it waits for a refill.
func TestSpareTypingTakesTwo(t *testing.T) {
	g := typingGate()
	if !g.SpareTyping("a", t0) {
		t.Fatal("SpareTyping on a full bucket of 6 = false; want true")
	}
	if g.SpareTyping("a", t0) {
		t.Error("second SpareTyping with 4 of 6 left = true; want false (2 left is under half)")
	}
	for i := range 4 {
		if tk, shed := g.Reserve("a", 0, t0); shed != "" || !tk.At.Equal(t0) {
			t.Fatalf("reply %d after the indicator: wait %v, shed %q; want none", i, tk.At.Sub(t0), shed)
		}
	}
	if tk, _ := g.Reserve("a", 0, t0); !tk.At.After(t0) {
		t.Error("the 5th reply went at once; want it to wait: the indicator took 2 of 6")
	}
}

// A refresh of an indicator takes one token, under the same half-the-bucket rule.
func TestSpareTypingRefresh(t *testing.T) {
	g := typingGate()
	for i, want := range []bool{true, true, true, false} { // 6 → 5 → 4 → 3; a 4th would leave 2
		if got := g.SpareTypingRefresh("a", t0); got != want {
			t.Fatalf("refresh %d = %v; want %v", i+1, got, want)
		}
	}
	if !g.SpareTypingRefresh("b", t0) {
		t.Error("a refresh in another chat = false; want true (its own bucket)")
	}
	g.RateLimited(t0, time.Minute, nil)
	if g.SpareTypingRefresh("b", t0) {
		t.Error("a refresh while paused after a 429 = true; want false")
	}
}
