package e2e

import (
	"strings"
	"syscall"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/sim"
)

// kill -9 with a reply in flight (the simulator holds the send: a hang
// fault on the next send), the frame's journal entry and its use on disk:
// the next process replays the frame, meets the use the dead one recorded
// for this very message and answers it again, once; it never refuses the
// user's own message with a cooldown, and the use is not counted twice. The
// same sender's next message (!ja) waits for the replay's turn, so once its
// reply is in, the replay's is too.
func TestReplayAnswersItsOwnUse(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const who = "+48784000001"
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["COOLDOWNS"] = "pomoc=10s" // its default: the replay comes well within it
	w.sim.SetFaults(sim.Faults{Send: sim.Fault{Kind: sim.FaultHang, Next: 1}})
	p := startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, who, "!pomoc")
	// The send reaching the simulator means the use was recorded before it.
	p.onDisk(t, "the reply in flight, its frame journaled", func(h map[string]any) bool {
		return w.sim.Stats().FaultsInjected == 1 && journalOf(h)["pending"] == float64(1)
	})
	w.killAndWait(t, p)
	if n := len(w.sim.Sent()); n != 0 {
		t.Fatalf("%d replies before the kill; want none (the send was held)", n)
	}
	p = startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, who, "!ja")
	sent := w.waitSent(t, 2)
	p.journalSettled(t)
	cooldown := commands.TextsFor("pl").Cooldown("pomoc", 0)
	refusal := cooldown[:strings.Index(cooldown, " ")] // "Poczekaj"
	for i, s := range sent {
		if s.Recipients[0] != who || strings.HasPrefix(s.Message, refusal) {
			t.Errorf("reply %d: %q to %s; want an answer to %s, never a refusal", i, s.Message, s.Recipients[0], who)
		}
	}
	if !strings.Contains(sent[0].Message, "!kot") {
		t.Errorf("first reply after the restart = %q; want !pomoc's help again", sent[0].Message)
	}
	if j := journalOf(p.health(t)); j["replayed"] != float64(1) {
		t.Errorf("/healthz journal replayed = %v; want 1", j["replayed"])
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	if n := len(w.sim.Sent()); n != 2 {
		t.Errorf("%d replies in all; want 2 (the help again, !ja)", n)
	}
	if uses, _ := botest.ReadUses(t, w.env["STATE_PATH"], "pomoc", 1, func(int) string { return who }); uses[who] != 1 {
		t.Errorf("%s's !pomoc uses on disk = %d; want 1 (one message, used once)", who, uses[who])
	}
	if !strings.Contains(p.stderr.String(), `msg="replayed frame's use recorded before the restart; answering it again"`) {
		t.Error("no line of the replay answering its own use again in the new process's log")
	}
}
