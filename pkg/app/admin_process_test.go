package app_test

import (
	"strconv"
	"syscall"
	"testing"

	"signal-bot/pkg/sim"
)

// kill -9 right after !bot confirmed a change: the change is on disk before
// the confirmation is sent, so the next process has it. The journal is off,
// so the restarted process cannot replay the !bot frame and make the change
// again by itself.
func testAdminChangeSurvivesKill(t *testing.T, bin string) {
	const member = "+48600000500"
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["ADMINS"], w.env["JOURNAL_MAX_FRAMES"] = "ala="+admin, "0"
	p := startBot(t, bin, w.env)
	subscribed(t, w)
	w.say(t, admin, "!bot cooldown kot 1m")
	confirmed := w.waitSent(t, 1)[0].Message
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	w.sim.ClearSent()
	waitFor(t, "the killed bot's socket gone", func() bool { return w.sim.Stats().Subscribers == 0 })
	p = startBot(t, bin, w.env)
	subscribed(t, w)
	w.say(t, member, "!kot")
	w.waitSent(t, 1)
	w.say(t, member, "!kot")
	refusal := w.waitSent(t, 2)[1].Message
	m := waitRE.FindStringSubmatch(refusal)
	if m == nil {
		t.Fatalf("the second !kot after the restart: %q; want a refusal that names the wait", refusal)
	}
	mins, _ := strconv.Atoi(m[1])
	secs, _ := strconv.Atoi(m[2])
	if wait := mins*60 + secs; wait <= 30 {
		t.Errorf("after kill -9 and a restart: the refusal names %d s; want more than the default 30 s", wait)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	t.Logf("confirmed %q, killed; after the restart the simulator recorded the picture and %q", confirmed, refusal)
}
