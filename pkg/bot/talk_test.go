package bot_test

import (
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// "￼ !pomoc" with the placeholder a mention of the bot is a command, answered
// once; with a mention of another member it is not one, and gets nothing.
func TestAddressedCommands(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		mention func(h *botest.Harness) string
		want    int // replies
	}{
		{"mention of the bot", func(h *botest.Harness) string { return h.Sim.Number() }, 1},
		{"mention of another member", func(*botest.Harness) string { return botest.Bob }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := botest.New(t, sim.Config{Lossless: true}, nil)
			h.Start()
			msg := sim.Message{From: botest.Alice, Group: "testbot", Text: "\uFFFC !pomoc", Mentions: []string{tt.mention(h)}}
			if _, err := h.Sim.Deliver(msg); err != nil {
				t.Fatal(err)
			}
			h.Settle(botest.Sentinel)
			var toGroup []sim.Sent
			for _, s := range h.Sim.Sent() {
				if s.Group == "testbot" {
					toGroup = append(toGroup, s)
				}
			}
			if len(toGroup) != tt.want {
				t.Fatalf("%d replies in the group %+v; want %d", len(toGroup), toGroup, tt.want)
			}
			if tt.want == 1 && (!strings.Contains(toGroup[0].Message, "!pomoc") || toGroup[0].QuoteMessage != msg.Text) {
				t.Errorf("reply %q quoting %q; want the command list, quoting the message", toGroup[0].Message, toGroup[0].QuoteMessage)
			}
		})
	}
}

// reactionsOn is the env of a bot with REACTIONS=on, as by default outside the
// tests written before reactions (botest.LimitsOff).
func reactionsOn(env map[string]string) map[string]string {
	out := map[string]string{"REACTIONS": "on"}
	for k, v := range env {
		out[k] = v
	}
	return out
}

// Two !kot from one member inside the cooldown: a picture, then a ⏳ reaction
// on the second message and no text; a third gets nothing (once per window).
func TestRefusedRepeatGetsAReaction(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, reactionsOn(nil))
	h.Start()
	var ts [3]int64
	for i := range ts {
		var err error
		if ts[i], err = h.Sim.Deliver(sim.Message{From: botest.Alice, Group: "testbot", Text: "!kot"}); err != nil {
			t.Fatal(err)
		}
	}
	h.Settle(botest.Sentinel)
	var toGroup []sim.Sent
	for _, s := range h.Sim.Sent() {
		if s.Group == "testbot" {
			toGroup = append(toGroup, s)
		}
	}
	if len(toGroup) != 1 || len(toGroup[0].Attachments) != 1 || toGroup[0].QuoteTimestamp != ts[0] {
		t.Fatalf("sends to the group %+v; want one picture, quoting the first !kot", toGroup)
	}
	rs := h.Sim.Reactions()
	if len(rs) != 1 {
		t.Fatalf("reactions %+v; want one", rs)
	}
	if r := rs[0]; r.Emoji != "⏳" || r.Timestamp != ts[1] || r.TargetAuthor != sim.UUIDOf(botest.Alice) || r.Recipient != botest.TestGroupRecipient() || r.Remove {
		t.Errorf("reaction %+v; want ⏳ on the second !kot (%d, by %s) in the group", r, ts[1], sim.UUIDOf(botest.Alice))
	}
}

// pictureThenRepeat starts a bot with env, has alice ask for a !kot in the
// test group and returns the bot, the picture's send and a function that
// delivers alice's 🔁 on target (by author; "" the bot).
func pictureThenRepeat(t *testing.T, env map[string]string) (*botest.Harness, sim.Sent, func(target int64, author string)) {
	t.Helper()
	h := botest.New(t, sim.Config{Lossless: true}, reactionsOn(env))
	h.Start()
	h.Say(botest.Alice, "testbot", "!kot")
	picture := h.WaitSent(1)[0]
	h.WaitIdle(1) // the bot has the send's answer, and remembers the picture by its timestamp
	return h, picture, func(target int64, author string) {
		t.Helper()
		if _, err := h.Sim.Deliver(sim.Message{Kind: sim.KindReaction, From: botest.Alice, Group: "testbot", Text: "🔁", Target: target, TargetAuthor: author}); err != nil {
			t.Fatal(err)
		}
	}
}

// A 🔁 on the bot's picture after the cooldown asks for another, a second
// picture; a 🔁 on someone else's message, or on the bot's text, gets nothing.
func TestRepeatReaction(t *testing.T) {
	t.Parallel()
	h, picture, repeat := pictureThenRepeat(t, map[string]string{"COOLDOWNS": "pomoc=0s,kot=1s"})
	time.Sleep(1100 * time.Millisecond) // the cooldown of 1 s runs out
	repeat(picture.Timestamp, "")
	second := h.WaitSent(2)[1]
	if len(second.Attachments) != 1 || second.Group != "testbot" || second.QuoteTimestamp != 0 {
		t.Fatalf("after the 🔁: %+v; want a second picture in the group, quoting nothing (a reaction has no text)", second)
	}
	h.WaitIdle(2)
	own, err := h.Sim.Deliver(sim.Message{From: botest.Bob, Group: "testbot", Text: "look"})
	if err != nil {
		t.Fatal(err)
	}
	h.Say(botest.Bob, "testbot", "!pomoc")
	help := h.WaitSent(3)[2]
	time.Sleep(1100 * time.Millisecond) // alice's cooldown runs out again: only the target may keep her from a picture
	repeat(own, botest.Bob)
	repeat(help.Timestamp, "")
	h.Settle(botest.Sentinel)
	if n, r := len(h.Sim.Sent()), len(h.Sim.Reactions()); n != 4 || r != 0 {
		t.Errorf("%d sends, %d reactions after a 🔁 on bob's message and one on the bot's text; want 4 (the sentinel's) and 0", n, r)
	}
}

// A 🔁 on the bot's picture inside the cooldown is a refused repeat: a ⏳ on
// that picture (a reaction cannot be reacted to), once per window.
func TestRepeatReactionInsideTheCooldown(t *testing.T) {
	t.Parallel()
	h, picture, repeat := pictureThenRepeat(t, nil) // !kot's own cooldown, 30 s
	repeat(picture.Timestamp, "")
	repeat(picture.Timestamp, "")
	h.Settle(botest.Sentinel)
	rs := h.Sim.Reactions()
	if len(rs) != 1 || rs[0].Emoji != "⏳" || rs[0].Timestamp != picture.Timestamp || rs[0].TargetAuthor != h.Sim.Number() {
		t.Errorf("reactions %+v; want one ⏳ on the bot's picture (%d)", rs, picture.Timestamp)
	}
	if n := len(h.Sim.Sent()); n != 2 {
		t.Errorf("%d sends; want the picture and the sentinel's reply", n)
	}
}

// A picture send that takes long (the simulator's send latency) keeps the
// typing indicator alive: shown, shown again at each TYPING_REFRESH while
// the send is on its way, then cleared once, after it. The figures are
// scaled down tenfold from a 40 s send and the default 10 s refresh (whose
// logic TestTypingRefreshed in package bot ticks through).
func TestTypingKeptAliveWhileSending(t *testing.T) {
	t.Parallel()
	lat := sim.ZeroLatency()
	lat.Send = 4 * time.Second
	h := botest.New(t, sim.Config{Lossless: true, Latency: lat}, map[string]string{"TYPING_REFRESH": "1s", "UPSTREAM_TIMEOUT": "60s"})
	h.Start()
	h.Say(botest.Alice, "testbot", "!kot")
	reply := h.WaitSent(1)[0]
	if len(reply.Attachments) != 1 {
		t.Fatalf("reply %q; want the picture", reply.Message)
	}
	h.Stop() // waits for the typing indicator to be cleared
	ty := h.Sim.Typings()
	shown := 0
	for i, x := range ty {
		if x.Recipient != botest.TestGroupRecipient() {
			t.Errorf("typing call %d to %q; want the group", i, x.Recipient)
		}
		if last := i == len(ty)-1; x.Started == last {
			t.Errorf("typing call %d of %d: started %v; want every one shown but the last, the clear", i, len(ty), x.Started)
		}
		if x.Started {
			shown++
		}
	}
	if shown < 3 {
		t.Errorf("indicator shown %d times during a 4 s send with TYPING_REFRESH=1s; want the first and at least 2 refreshes", shown)
	}
	if n := len(ty); n > 0 && ty[n-1].At.Before(reply.At) {
		t.Errorf("indicator cleared at %v, before the send was answered at %v", ty[n-1].At, reply.At)
	}
}
