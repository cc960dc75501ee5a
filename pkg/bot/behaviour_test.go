package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// A !cat whose upstream hangs does not delay another sender's !pomoc: the
// fast reply arrives while the slow one is still pending.
func TestSlowUpstreamDelaysNobodyElse(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"UPSTREAM_TIMEOUT": "5s"})
	h.Up.SetFault(fakeup.TargetCatSearch, fakeup.FaultHang)
	h.Start()
	h.Say(botest.Alice, "testbot", "!cat")
	for i := 0; h.Up.Requests(fakeup.TargetCatSearch) == 0; i++ { // alice's !cat is now hanging upstream
		if i > 5000 {
			t.Fatal("the !cat never reached the upstream")
		}
		time.Sleep(time.Millisecond)
	}
	h.Say(botest.Bob, "", "!pomoc")
	first := h.WaitSent(1)[0]
	if first.Recipients[0] != botest.Bob || !strings.Contains(first.Message, "Komendy") {
		t.Fatalf("first reply = %q to %q; want bob's help", first.Message, first.Recipients)
	}
	if n := len(h.Sim.Sent()); n != 1 {
		t.Fatalf("%d replies while the !cat hangs; want 1 (the !cat still pending)", n)
	}
	second := h.WaitSent(2)[1] // the hang ends at UPSTREAM_TIMEOUT with an apology
	if second.Recipients[0] != botest.TestGroupRecipient() || !strings.Contains(second.Message, "Przepraszam") || len(second.Attachments) != 0 {
		t.Errorf("second reply = %q to %q; want an apology to the group", second.Message, second.Recipients)
	}
}

// The cooldown check and the recording of the use happen together under the
// sender's turn: of two quick !kot from one person exactly one passes.
func TestCooldownPerSender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		senders      []string
		wantPictures int
	}{
		{"one sender twice", []string{botest.Alice, botest.Alice}, 1},
		{"two senders", []string{botest.Alice, botest.Bob}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := botest.New(t, sim.Config{Lossless: true}, nil)
			h.Start()
			for _, s := range tt.senders {
				h.Say(s, "testbot", "!kot")
			}
			pictures, cooldowns := 0, 0
			for _, s := range h.WaitSent(2) {
				switch {
				case len(s.Attachments) == 1:
					pictures++
				case strings.Contains(s.Message, "Poczekaj jeszcze"):
					cooldowns++
				}
			}
			if pictures != tt.wantPictures || pictures+cooldowns != 2 {
				t.Errorf("pictures %d, cooldown replies %d; want %d pictures", pictures, cooldowns, tt.wantPictures)
			}
		})
	}
}

// LIMIT=4 with 50 slow frames: never more than 4 at once, all answered.
func TestLimitBoundsConcurrency(t *testing.T) {
	const frames = 50
	h := botest.New(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 20 * time.Millisecond}}, map[string]string{"LIMIT": "4"})
	h.Start()
	for i := range frames {
		h.Say(fmt.Sprintf("+4870000%04d", i), "", "!pomoc") // 50 senders: nobody waits for a turn
	}
	sent := h.WaitSent(frames)
	if peak := h.Sends.Peak(); peak > 4 || peak < 2 {
		t.Errorf("peak concurrent sends = %d; want 2..4", peak)
	}
	seen := map[string]int{}
	for _, s := range sent {
		seen[s.Recipients[0]]++
	}
	if len(seen) != frames {
		t.Errorf("%d distinct recipients; want %d", len(seen), frames)
	}
}

// A burst of 1,000 frames with QUEUE_DEPTH ≥ 1,000: all answered, none lost,
// none twice. How fast a burst is answered is BenchmarkBurst's figure (and
// go run ./tool/soak --burst's).
func TestBurstAllAnsweredOnce(t *testing.T) {
	const frames, senders = 1000, 100
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"QUEUE_DEPTH": "1000", "LIMIT": "16"})
	h.Start()
	start := time.Now()
	for i := range frames {
		h.Say(fmt.Sprintf("+4871000%04d", i%senders), "", "!pomoc")
	}
	sent := h.WaitSent(frames)
	elapsed := time.Since(start)
	h.WaitIdle(frames)
	if n := len(h.Sim.Sent()); n != frames {
		t.Fatalf("%d replies; want exactly %d", n, frames)
	}
	per := map[string]int{}
	for _, s := range sent {
		per[s.Recipients[0]]++
	}
	for r, n := range per {
		if n != frames/senders {
			t.Errorf("%s got %d replies; want %d", r, n, frames/senders)
		}
	}
	if d := h.Health()["dropped"]; d != float64(0) {
		t.Errorf("dropped = %v; want 0", d)
	}
	t.Logf("burst: %d frames answered in %v (%.0f replies/s)", frames, elapsed.Round(time.Millisecond), float64(frames)/elapsed.Seconds())
}

// Receipts, typing, sync, reactions, group updates and attachment-only
// messages get no reply. A sync transcript is the owner's message, which
// OWNER_COMMANDS=on would answer in the test group (TestOwnerCommands): off,
// the bot's behaviour before owner mode, it is ignored like the rest.
func TestIgnoredFrames(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"OWNER_COMMANDS": "off"})
	h.Start()
	kinds := []sim.Kind{sim.KindReceipt, sim.KindTyping, sim.KindSync, sim.KindReaction, sim.KindGroupUpdate, sim.KindAttachmentOnly, sim.KindEdit}
	for _, k := range kinds {
		if _, err := h.Sim.Deliver(sim.Message{From: botest.Alice, Group: "testbot", Kind: k, Text: "!pomoc"}); err != nil {
			t.Fatal(err)
		}
	}
	h.Say(botest.Alice, "", "hello, no command here")
	h.WaitIdle(len(kinds) + 1)
	if sent := h.Sim.Sent(); len(sent) != 0 {
		t.Errorf("replies to ignored frames: %+v", sent)
	}
}

// Malformed frames are logged and skipped; the next valid frame is answered.
func TestMalformedFramesSkipped(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	bad := [][]byte{
		[]byte("not json"),
		[]byte(`{"envelope":{"sourceNumber":42,"dataMessage":{"message":["!pomoc"]}},"account":"` + h.Sim.Number() + `"}`),
		[]byte(`{"envelope":"nope"}`),
		[]byte(`{"envelope":{"sourceNumber":"+48600000001","dataMessage":{"message":"` + strings.Repeat("a", 1<<20) + `"}},"account":"` + h.Sim.Number() + `"}`),
		[]byte(`{"error":"Failed to decrypt"}`),
	}
	for _, b := range bad {
		h.Sim.DeliverRaw(b)
	}
	h.Say(botest.Alice, "", "!pomoc")
	if got := h.WaitSent(1)[0]; got.Recipients[0] != botest.Alice {
		t.Errorf("reply to %q; want alice", got.Recipients)
	}
	h.WaitIdle(len(bad) + 1)
	if n := len(h.Sim.Sent()); n != 1 {
		t.Errorf("%d replies; want 1", n)
	}
	logs := h.Logs.String()
	if n := strings.Count(logs, `msg="malformed frame skipped"`); n != 3 {
		t.Errorf("%d malformed frames logged; want 3 (not json, a number as sender, a string as envelope)", n)
	}
	if n := strings.Count(logs, `msg="error frame from signal-cli-rest-api skipped"`); n != 1 {
		t.Errorf("%d error frames logged; want 1", n)
	}
}

// A hidden number is answered by UUID.
func TestHiddenNumberAnsweredByUUID(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	const uuid = "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11"
	if _, err := h.Sim.Deliver(sim.Message{UUID: uuid, Text: "!pomoc"}); err != nil {
		t.Fatal(err)
	}
	if got := h.WaitSent(1)[0]; got.Recipients[0] != uuid {
		t.Errorf("reply to %q; want the UUID", got.Recipients)
	}
}

// Tallies and cooldowns survive a restart of the bot.
func TestStateSurvivesRestart(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	h.Say(botest.Alice, "", "!kot")
	if got := h.WaitSent(1)[0]; len(got.Attachments) != 1 {
		t.Fatalf("first !kot = %+v; want a picture", got)
	}
	h.Stop()
	h.Start()
	h.Say(botest.Alice, "", "!kot")
	h.Say(botest.Alice, "", "!ja")
	sent := h.WaitSent(3)
	if !strings.Contains(sent[1].Message, "Poczekaj jeszcze") {
		t.Errorf("!kot after restart = %q; want the cooldown still running", sent[1].Message)
	}
	if !strings.Contains(sent[2].Message, "!kot — 1 raz, znów za") {
		t.Errorf("!ja after restart = %q; want !kot counted once with its cooldown", sent[2].Message)
	}
}
