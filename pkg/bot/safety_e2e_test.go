package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// The safety limits (issue 10) with the bot's own defaults, against the simulator with
// Signal's rate limits on: nobody in a chat can make the bot spend its account's limits.

// safeBot starts the bot with its default limits (botest.LimitsOff undone) against a
// simulator that enforces Signal's rate limits.
func safeBot(t *testing.T, env map[string]string) *botest.Harness {
	t.Helper()
	h := botest.New(t, sim.Config{Lossless: true, Limits: sim.SignalLimits()}, env)
	h.SafeDefaults(env)
	h.Start()
	return h
}

// countSends counts the recorded sends whose text contains sub (any send when sub is "")
// and, separately, those with attachments.
func countSends(sent []sim.Sent, sub string) (text, pictures int) {
	for _, s := range sent {
		if len(s.Attachments) > 0 {
			pictures++
		}
		if strings.Contains(s.Message, sub) {
			text++
		}
	}
	return text, pictures
}

func TestFloodOfUnknownCommandsGetsOneHint(t *testing.T) {
	t.Parallel()
	h := safeBot(t, nil)
	for range 300 {
		h.Say(botest.Member, "testbot", "!x")
	}
	h.WaitDone(300)
	h.Say(botest.Member, "testbot", "!pomoc")
	h.Say(botest.Member2, "testbot", "!pomoc")
	h.WaitDone(302)
	sent := h.Sim.Sent()
	hints, _ := countSends(sent, "Nie znam komendy")
	helps, _ := countSends(sent, "!pomoc")
	if hints > 1 || helps-hints != 2 || len(sent) != hints+2 {
		t.Errorf("300 × !x then 2 × !pomoc: %d sends, %d hints, %d help lists; want at most 1 hint and both !pomoc answered", len(sent), hints, helps-hints)
	}
	fams := h.Scrape()
	quiet := botest.Value(fams, "signal_bot_replies_shed_total", map[string]string{"reason": "quiet"})
	dropped := botest.Value(fams, "signal_bot_frames_dropped_total", map[string]string{"reason": "sender_queue"})
	if got := max(quiet, 0) + max(dropped, 0) + float64(hints); got != 300 {
		t.Errorf("hints %d + quiet %v + dropped by the sender queue %v = %v; want every one of 300 accounted for", hints, quiet, dropped, got)
	}
	if st := h.Sim.Stats(); st.RateLimited != 0 || st.RecipientsLimited != 0 {
		t.Errorf("simulator stats %+v; want no rate limit hit", st)
	}
}

func TestFloodOfKotGetsOnePicture(t *testing.T) {
	t.Parallel()
	h := safeBot(t, nil)
	for range 300 {
		h.Say(botest.Member, "testbot", "!kot")
	}
	h.WaitDone(300)
	sent := h.Sim.Sent()
	waits, pictures := countSends(sent, "Poczekaj")
	if pictures != 1 || waits > 1 || len(sent) != pictures+waits {
		t.Errorf("300 × !kot: %d sends, %d pictures, %d \"wait\" replies; want 1 picture and at most 1 wait", len(sent), pictures, waits)
	}
}

func TestManySendersInOneGroupStayInsideSignalsLimits(t *testing.T) {
	// A short wait keeps the test quick: the chat's budget (30 at once, 1 back per 2 s) is
	// spent by the 30th reply, and each later one would wait longer than 500 ms.
	h := safeBot(t, map[string]string{"SEND_WAIT_MAX": "500ms"})
	start := time.Now()
	const senders = 500
	for i := range senders {
		h.Say(fmt.Sprintf("+48700%06d", i), "testbot", "!pomoc")
	}
	h.Say(botest.Member, "", "!pomoc") // another chat, meanwhile: a direct chat with a member
	h.WaitDone(senders + 1)
	elapsed := time.Since(start)

	var toGroup, toMember int
	for _, s := range h.Sim.Sent() {
		switch s.Recipients[0] {
		case botest.TestGroupRecipient():
			toGroup++
		case botest.Member:
			toMember++
		}
	}
	// The budget gives 30 at once and one more per 2 s of the run.
	budget := 30 + int(elapsed/(2*time.Second)) + 1
	if toGroup < 30 || toGroup > budget || toMember != 1 {
		t.Errorf("%d replies to the group (run %v, budget %d), %d to the member's direct chat; want 30..%d and 1", toGroup, elapsed, budget, toMember, budget)
	}
	fams := h.Scrape()
	if got := botest.Value(fams, "signal_bot_replies_shed_total", map[string]string{"reason": "budget_chat"}); got != float64(senders-toGroup) {
		t.Errorf("shed by the chat budget: %v; want %d (every reply not sent)", got, senders-toGroup)
	}
	if got := max(botest.Value(fams, "signal_bot_send_errors_total", map[string]string{"kind": "rate_limited"}), 0); got != 0 {
		t.Errorf("429s seen by the bot: %v; want 0", got)
	}
	if st := h.Sim.Stats(); st.RateLimited != 0 || st.RecipientsLimited != 0 {
		t.Errorf("simulator stats %+v; want no rate limit hit", st)
	}
	t.Logf("%d × !pomoc from %d senders in one group: %d sent, %d shed, 0 × 429, in %v", senders, senders, toGroup, senders-toGroup, elapsed)
}

func TestRateLimitPausesEverySend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		fault sim.Fault
		env   map[string]string
	}{
		// The released REST API names no retry time: the bot's own back-off, shortened here.
		{"no retry time: RATE_LIMIT_PAUSE", sim.Fault{Kind: sim.FaultRateLimit, Next: 1, ChallengeTokens: []string{"tok-backoff"}},
			map[string]string{"RATE_LIMIT_PAUSE": "1s"}},
		{"Retry-After", sim.Fault{Kind: sim.FaultRateLimit, Next: 1, ChallengeTokens: []string{"tok-retry"}, RetryAfter: 1e9 /* 1 s */}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := safeBot(t, tt.env)
			token := tt.fault.ChallengeTokens[0]
			h.Sim.SetFaults(sim.Faults{Send: tt.fault})
			h.Say(botest.Member, "testbot", "!pomoc")
			h.WaitLog("rate-limited")
			paused, ok := h.Health()["send_paused_until"].(string)
			until, err := time.Parse(time.RFC3339Nano, paused)
			if !ok || err != nil {
				t.Fatalf("send_paused_until after a 429 = %v (%v); want a time", h.Health()["send_paused_until"], err)
			}
			for i := range 3 {
				h.Say(fmt.Sprintf("+48700%06d", i), "testbot", "!pomoc")
			}
			h.WaitDone(4)
			sent := h.Sim.Sent()
			if len(sent) != 3 {
				t.Fatalf("%d replies after the pause; want 3 (the refused one is not retried)", len(sent))
			}
			for _, s := range sent {
				if s.At.Before(until) {
					t.Errorf("a send reached the simulator at %v, before the pause ended at %v", s.At, until)
				}
			}
			if got := strings.Count(h.Logs.String(), "challenge_tokens="+token); got != 1 {
				t.Errorf("log lines with the challenge token: %d; want 1", got)
			}
			if !strings.Contains(h.Logs.String(), "/rate-limit-challenge") {
				t.Error("the log does not give the command that lifts the limit")
			}
			if got := h.Health()["send_paused_until"]; got != nil {
				t.Errorf("send_paused_until after the pause = %v; want null", got)
			}
		})
	}
}

func TestAnswerIn(t *testing.T) {
	t.Parallel()
	other := sim.Group{Alias: "other", Name: "other", InternalID: "b3RoZXItZ3JvdXAtaWQtb2YtMzItYnl0ZXMtbG9uZyE=", Members: []string{botest.Stranger}}
	tests := []struct {
		name      string
		answerIn  string // "" the default
		from      string
		group     string
		wantReply bool
	}{
		{"stranger, direct, default", "", botest.Stranger, "", false},
		{"member, direct, default", "", botest.Member, "", true},
		{"configured group, default", "", botest.Stranger, "testbot", true},
		{"group not configured, default", "", botest.Member, "other", false},
		{"stranger, direct, *", "*", botest.Stranger, "", true},
		{"member, direct, groups only", "groups", botest.Member, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			if tt.answerIn != "" {
				env["ANSWER_IN"] = tt.answerIn
			}
			h := botest.New(t, sim.Config{Lossless: true, Groups: []sim.Group{sim.TestGroup(), other}}, env)
			h.SafeDefaults(env)
			h.Start()
			h.Say(tt.from, tt.group, "!pomoc")
			h.WaitDone(1)
			if got := len(h.Sim.Sent()) == 1; got != tt.wantReply {
				t.Errorf("replied %v; want %v", got, tt.wantReply)
			}
			ignored := max(botest.Value(h.Scrape(), "signal_bot_frames_ignored_total", map[string]string{"reason": "answer_in"}), 0)
			if want := map[bool]float64{true: 0, false: 1}[tt.wantReply]; ignored != want {
				t.Errorf("signal_bot_frames_ignored_total{reason=answer_in} = %v; want %v", ignored, want)
			}
			if strings.Contains(h.Logs.String(), tt.from) {
				t.Errorf("the log names the sender %s", tt.from)
			}
		})
	}
}
