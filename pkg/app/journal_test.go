package app_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"signal-bot/pkg/sim"
)

// kill -9 with 200 frames accepted and not yet answered (20 ms sends, LIMIT=1):
// the next process replays them from the journal and every sender is
// answered; the only duplicates are frames whose reply went out before the
// kill while their "done" was not yet on disk.
func testKillReplaysJournal(t *testing.T, bin string) {
	const frames = 200
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 20 * time.Millisecond}})
	w.env["LIMIT"], w.env["JOURNAL_MAX_FRAMES"] = "1", "5000"
	p := startBot(t, bin, w.env)
	number := func(i int) string { return fmt.Sprintf("+4878000%04d", i) }
	for i := range frames {
		w.say(t, number(i), "!pomoc")
	}
	waitFor(t, "every frame accepted", func() bool { return p.health(t)["accepted"] == float64(frames) })
	w.waitSent(t, 5)
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	before := len(w.sim.Sent())
	p = startBot(t, bin, w.env)
	w.waitSent(t, frames)
	waitFor(t, "the journal empty", func() bool {
		j, _ := p.health(t)["journal"].(map[string]any)
		return j != nil && j["pending"] == float64(0)
	})
	per := repliesTo(w.sim.Sent())
	for i := range frames {
		if per[number(i)] < 1 {
			t.Errorf("%s got no reply after the restart", number(i))
		}
	}
	j := p.health(t)["journal"].(map[string]any)
	dups := len(w.sim.Sent()) - frames
	// In flight at the kill: the one frame in a slot (LIMIT=1) and the frames
	// answered within the last commit interval (10 ms) before it, at most one
	// more with 20 ms sends.
	if dups > 2 {
		t.Errorf("%d duplicate replies; want at most 2 (LIMIT=1 plus the last commit interval)", dups)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	t.Logf("kill -9 after %d of %d replies: %v replayed, %d duplicates, %d replies in all", before, frames, j["replayed"], dups, len(w.sim.Sent()))
}
