package e2e

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// kill -9 during a burst of !pomoc (no cooldown), 10 people × 30 frames: the
// state file holds, per person, no more uses than they sent, and a chat count
// equal to their sum, so the state after a prefix of the uses, none invented
// (only the uses of the last commit interval may be missing). Restarted on
// that file, one more !pomoc each, and kill -9 once the bot reports nothing
// left to commit (a quiet period): every use is on disk.
func TestKillKeepsPrefix(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const senders, each = 10, 30
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 2 * time.Millisecond}})
	w.env["LIMIT"] = "4"
	// The state file's own guarantee, alone: with the journal on, the
	// restarted process would replay the frames the kill left and record
	// their uses again, blurring the prefix this test checks.
	w.env["JOURNAL_MAX_FRAMES"] = "0"
	p := startBot(t, bin, w.env)
	w.subscribed(t)
	number := func(i int) string { return fmt.Sprintf("+4877000%04d", i) }
	for range each {
		for i := range senders {
			w.say(t, number(i), "!pomoc")
		}
	}
	w.waitSent(t, senders*each/4)
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	replied := len(w.sim.Sent())
	uses, chat := botest.ReadUses(t, w.env["STATE_PATH"], "pomoc", senders, number)
	var sum int64
	for i := range senders {
		n := number(i)
		sum += uses[n]
		if uses[n] > each {
			t.Errorf("%s: %d uses on disk of %d sent; want at most %d", n, uses[n], each, each)
		}
	}
	if chat != sum {
		t.Errorf("the chat's count on disk = %d, the people's uses sum to %d; want them equal", chat, sum)
	}
	t.Logf("kill -9 during the burst: %d replies sent, %d uses on disk, of %d frames", replied, sum, senders*each)

	w.sim.ClearSent()
	testkit.WaitFor(t, "the killed bot's socket gone", func() bool { return w.sim.Stats().Subscribers == 0 })
	p = startBot(t, bin, w.env)
	w.subscribed(t)
	for i := range senders {
		w.say(t, number(i), "!pomoc")
	}
	w.waitSent(t, senders)
	testkit.WaitFor(t, "every use committed", func() bool {
		st, _ := p.health(t)["state"].(map[string]any)
		return st != nil && st["pending"] == float64(0)
	})
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	after, chatAfter := botest.ReadUses(t, w.env["STATE_PATH"], "pomoc", senders, number)
	for i := range senders {
		if n := number(i); after[n] != uses[n]+1 {
			t.Errorf("%s: %d uses on disk after a quiet kill -9; want %d", n, after[n], uses[n]+1)
		}
	}
	if chatAfter != chat+senders {
		t.Errorf("the chat's count after a quiet kill -9 = %d; want %d", chatAfter, chat+senders)
	}
}
