package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/sim"
)

// A scheduled post in a real process, killed with kill -9 right after the
// post reached the simulator: the slot's record was on disk before the post
// went (docs/faults.md), so the restarted bot does not post it again. Then
// the bot is down over the next day's slot and restarted within
// SCHEDULE_GRACE (one post), and down over the one after and restarted
// outside it (none). STATE_COMMIT_INTERVAL=1m: a record not flushed before
// the post would still be in memory at the kill, and lost.
func TestScheduleProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped under -short (testing.Short): runs the bot as a process")
	}
	t.Parallel()
	w := newWorld(t, sim.Config{Lossless: true})
	for k, v := range map[string]string{
		"SCHEDULE": "testbot=kot@08:00", "TZ": "Europe/Warsaw", "SCHEDULE_GRACE": "1h",
		"STATE_COMMIT_INTERVAL": "1m", "POOL_SIZE_KOT": "0", "POOL_SIZE_CAT": "0",
		"OTEL_TRACES_EXPORTER": "none", "GORACE": "atexit_sleep_ms=0",
	} {
		w.env[k] = v
	}
	waw, err := time.LoadLocation("Europe/Warsaw")
	if err != nil {
		t.Fatal(err)
	}
	local := func(s string) time.Time {
		v, err := time.ParseInLocation(time.DateTime, s, waw)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// The slot is armed (its record: done up to 07:00) and on disk after SIGTERM.
	p := startAsBot(t, w.env, local("2026-12-02 07:00:00"))
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit %d after SIGTERM", code)
	}
	// Two seconds before the slot: one post, then kill -9 at once.
	p = startAsBot(t, w.env, local("2026-12-02 07:59:58"))
	if s := w.waitSent(t, 1)[0]; s.Group != "testbot" || len(s.Attachments) != 1 {
		t.Fatalf("the post: group %q, %d attachments; want a picture in testbot", s.Group, len(s.Attachments))
	}
	p.stop(t, syscall.SIGKILL)
	// Restarted in the same minute: the slot is done; its next time is tomorrow.
	p = startAsBot(t, w.env, local("2026-12-02 08:00:05"))
	if !strings.Contains(p.stderr.String(), `next="testbot=kot@08:00 next 2026-12-03 08:00 CET"`) {
		t.Errorf("after kill -9 the restarted bot does not have the slot done:\n%s", p.stderr)
	}
	p.stop(t, syscall.SIGTERM)
	if n := len(w.sim.Sent()); n != 1 {
		t.Fatalf("%d sends after kill -9 and a restart; want the one post", n)
	}
	// Down over the next day's 08:00, restarted 40 min late: posted once.
	p = startAsBot(t, w.env, local("2026-12-03 08:40:00"))
	w.waitSent(t, 2)
	p.stop(t, syscall.SIGTERM)
	// Down over the day after's, restarted 90 min late: skipped.
	p = startAsBot(t, w.env, local("2026-12-04 09:30:00"))
	testkit.WaitFor(t, "the skipped slot's log line", func() bool {
		return strings.Contains(p.stderr.String(), "scheduled post skipped: missed by more than SCHEDULE_GRACE")
	})
	p.stop(t, syscall.SIGTERM)
	if n := len(w.sim.Sent()); n != 2 {
		t.Errorf("%d sends; want 2 (the kill's post and the one within the grace)", n)
	}
}
