package e2e

import (
	"syscall"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// kill -9 right after !bot confirmed a change: the change is on disk before
// the confirmation is sent, so the next process has it. The journal is off,
// so the restarted process cannot replay the !bot frame and make the change
// again by itself.
func TestAdminChangeSurvivesKill(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const member = "+48600000500"
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["ADMINS"], w.env["JOURNAL_MAX_FRAMES"] = "ala="+botest.Admin, "0"
	p := startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, botest.Admin, "!bot cooldown kot 1m")
	confirmed := w.waitSent(t, 1)[0].Message
	w.killAndWait(t, p)
	w.sim.ClearSent()
	p = startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, member, "!kot")
	w.waitSent(t, 1)
	w.say(t, member, "!kot")
	refusal := w.waitSent(t, 2)[1].Message
	wait, ok := botest.CooldownWait(refusal)
	if !ok {
		t.Fatalf("the second !kot after the restart: %q; want a refusal that names the wait", refusal)
	}
	if wait <= 30 {
		t.Errorf("after kill -9 and a restart: the refusal names %d s; want more than the default 30 s", wait)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	t.Logf("confirmed %q, killed; after the restart the simulator recorded the picture and %q", confirmed, refusal)
}
