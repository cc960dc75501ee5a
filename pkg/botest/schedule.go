package botest

import (
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/schedule"
	"signal-bot/pkg/sim"
)

// Scheduled posts on a clock the test moves (schedule.Manual): the slot's
// time comes at a step of the test, never by the wall clock.

// UTC parses a time.DateTime in UTC; a bad one panics (a typo in a test).
func UTC(s string) time.Time {
	t, err := time.Parse(time.DateTime, s)
	if err != nil {
		panic(err)
	}
	return t
}

// NewScheduled is a harness whose scheduler runs on a manual clock set to
// now (UTC), with SCHEDULE testbot=kot@08:00, TZ=UTC and SCHEDULE_GRACE 1h
// unless env says otherwise.
func NewScheduled(t testing.TB, now string, env map[string]string) (*Harness, *schedule.Manual) {
	t.Helper()
	base := map[string]string{"SCHEDULE": "testbot=kot@08:00", "TZ": "UTC", "SCHEDULE_GRACE": "1h"}
	for k, v := range env {
		base[k] = v
	}
	h := New(t, sim.Config{Lossless: true}, base)
	clock := schedule.NewManual(UTC(now))
	h.Clock = clock
	return h, clock
}

// Armed waits until the scheduler waits on the clock for its next slot:
// every slot due by the clock's time has been handled.
func Armed(t testing.TB, c *schedule.Manual) {
	t.Helper()
	testkit.WaitFor(t, "the scheduler to wait for its next slot", func() bool { return c.Waiting() > 0 })
}

// WaitPosts waits until n scheduled posts have ended with outcome.
func (h *Harness) WaitPosts(outcome string, n float64) {
	h.T.Helper()
	testkit.WaitFor(h.T, "scheduled posts "+outcome, func() bool {
		return Value(h.Scrape(), "signal_bot_scheduled_posts_total", map[string]string{"outcome": outcome}) == n
	})
}

// WaitPool waits until command's picture pool holds n pictures: no refill
// is running then, which a stop would wait for.
func (h *Harness) WaitPool(command string, n float64) {
	h.T.Helper()
	testkit.WaitFor(h.T, "the "+command+" pool", func() bool {
		return Value(h.Scrape(), "signal_bot_pool_ready", map[string]string{"command": command}) >= n
	})
}
