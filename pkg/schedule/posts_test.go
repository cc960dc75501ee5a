package schedule_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/telemetry"
)

// Scheduled posts (SCHEDULE) against the simulator, in-process, on a clock
// the test moves (schedule.Manual): the slot's time comes at a step of the
// test, never by the wall clock.

var scheduledServed = regexp.MustCompile(`msg=served command=\S+ .*send_wait_ms=(\S+) .*trace_id=\S+ scheduled=true`)

func TestScheduledPostOnce(t *testing.T) {
	t.Parallel()
	h, clock := botest.NewScheduled(t, "2026-12-02 07:59:57", map[string]string{"POOL_SIZE_KOT": "2"})
	h.Start()
	fams := func() map[string]float64 {
		m := h.Scrape()
		return map[string]float64{
			"hits":   botest.Value(m, "signal_bot_pool_hits_total", map[string]string{"command": "kot"}),
			"served": botest.Value(m, "signal_bot_scheduled_posts_total", map[string]string{"outcome": "served"}),
		}
	}
	h.WaitPool("kot", 2)
	botest.Armed(t, clock)
	clock.Set(botest.UTC("2026-12-02 08:00:00"))
	sent := h.WaitSent(1)
	if s := sent[0]; s.Group != "testbot" || len(s.Attachments) != 1 || s.QuoteTimestamp != 0 {
		t.Errorf("the post = group %q, %d attachments, quote %d; want one picture in testbot, no quote", s.Group, len(s.Attachments), s.QuoteTimestamp)
	}
	h.WaitLog("scheduled=true")
	if !scheduledServed.MatchString(h.Logs.String()) {
		t.Errorf("no served line of the post with its timing block and scheduled=true:\n%s", h.Logs)
	}
	if !strings.Contains(h.Logs.String(), `msg="scheduled post" slot="testbot=kot@08:00" outcome=served`) {
		t.Error(`no "scheduled post" line with the slot and its outcome`)
	}
	if f := fams(); f["hits"] != 1 || f["served"] != 1 {
		t.Errorf("pool hits %v, scheduled served %v; want 1 and 1 (the picture from the pool)", f["hits"], f["served"])
	}
	botest.Armed(t, clock)
	if next := h.Bot.Scheduler().Next(); len(next) != 1 || !next[0].At.Equal(botest.UTC("2026-12-03 08:00:00")) {
		t.Errorf("next slots = %+v; want tomorrow 08:00", next)
	}
	clock.Set(botest.UTC("2026-12-02 08:00:40"))
	botest.Armed(t, clock)
	h.WaitPool("kot", 2) // refilled
	h.Stop()             // lets anything queued finish
	// Restarted within the same minute, on the same state file: nothing again.
	h.Start()
	botest.Armed(t, clock)
	h.WaitPool("kot", 2)
	h.Stop()
	if n := len(h.Sim.Sent()); n != 1 {
		t.Errorf("%d sends; want exactly one post", n)
	}
}

func TestMissedSlotAfterRestart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, restart string
		posts         int
		outcome       string
	}{
		{"within the grace window: posted once", "2026-12-03 08:59:00", 1, "served"},
		{"outside the grace window: skipped", "2026-12-03 09:01:00", 0, "skipped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h, clock := botest.NewScheduled(t, "2026-12-02 12:00:00", nil)
			h.Start() // the slot is armed: done up to now
			botest.Armed(t, clock)
			h.Stop()
			clock.Set(botest.UTC(tc.restart)) // the bot was down at 08:00
			h.Start()
			botest.Armed(t, clock)
			if tc.posts > 0 {
				h.WaitSent(tc.posts)
			}
			h.WaitPosts(tc.outcome, 1)
			h.Stop()
			h.Start() // and once more: nothing new
			botest.Armed(t, clock)
			h.Stop()
			if n := len(h.Sim.Sent()); n != tc.posts {
				t.Errorf("%d sends; want %d", n, tc.posts)
			}
		})
	}
}

// A post meets the outbound budget and the 429 pause as a reply would: it
// waits for a token within SEND_WAIT_MAX, else it is shed and counted.
func TestScheduledPostMeetsTheBudget(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		env     map[string]string
		fault   bool // the !pomoc before the post gets a 429
		sends   int
		outcome string
		shed    string // the reason label of replies_shed, if shed
	}{
		{"an empty chat budget sheds it", map[string]string{"SEND_BUDGET_CHAT": "1/1h", "SEND_WAIT_MAX": "1s"}, false, 1, "shed", "budget_chat"},
		{"a 429 pause sheds it", map[string]string{"RATE_LIMIT_PAUSE": "1h", "SEND_WAIT_MAX": "1s"}, true, 0, "shed", "paused"},
		{"a token soon: it waits", map[string]string{"SEND_BUDGET_CHAT": "1/3s", "SEND_WAIT_MAX": "10s"}, false, 2, "served", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// A text post, so it reaches the budget at once: a picture's
			// fetch and shrink could outlast the token's refill under -race.
			tc.env["SEND_BUDGET"], tc.env["SCHEDULE"] = "on", "testbot=pomoc@08:00"
			h, clock := botest.NewScheduled(t, "2026-12-02 07:59:00", tc.env)
			h.Start()
			if tc.fault {
				h.Sim.SetFaults(sim.Faults{Send: sim.Fault{Kind: sim.FaultRateLimit, Next: 1}})
			}
			h.Say(sim.DefaultSender, "testbot", "!pomoc") // takes the chat's token, or meets the 429
			h.WaitIdle(1)
			botest.Armed(t, clock)
			clock.Set(botest.UTC("2026-12-02 08:00:00"))
			h.WaitPosts(tc.outcome, 1)
			if tc.shed != "" {
				if got := botest.Value(h.Scrape(), "signal_bot_replies_shed_total", map[string]string{"reason": tc.shed}); got != 1 {
					t.Errorf("replies shed for %s = %v; want 1", tc.shed, got)
				}
			} else {
				m := scheduledServed.FindStringSubmatch(h.Logs.String())
				if m == nil {
					t.Fatalf("no served line of the post:\n%s", h.Logs)
				}
				if wait, err := strconv.ParseFloat(m[1], 64); err != nil || wait <= 0 {
					t.Errorf("the post's send_wait_ms = %q; want above 0 (it waited for the chat's token)\n%s", m[1], h.Logs)
				}
			}
			h.Stop()
			if n := len(h.Sim.Sent()); n != tc.sends {
				t.Errorf("%d sends; want %d", n, tc.sends)
			}
		})
	}
}

// A scheduled post whose command panics costs that post only: counted as a
// panic and as a post in error, nothing sent (nobody asked: no apology), and
// the bot answers the next frame.
func TestScheduledPostPanics(t *testing.T) {
	t.Parallel()
	h, clock := botest.NewScheduled(t, "2026-12-02 07:59:00", map[string]string{"SCHEDULE": "testbot=wybuch@08:00"})
	h.Commands = []*commands.Command{botest.Panicky("wybuch")}
	h.Start()
	botest.Armed(t, clock)
	clock.Set(botest.UTC("2026-12-02 08:00:00"))
	h.WaitPosts("error", 1)
	if got := botest.Value(h.Scrape(), "signal_bot_panics_total", map[string]string{"command": "wybuch"}); got != 1 {
		t.Errorf("panics counted for wybuch = %v; want 1", got)
	}
	h.WaitLog("panic in a scheduled post recovered")
	h.Say(sim.DefaultSender, "testbot", "!pomoc")
	if sent := h.WaitSent(1); len(sent) != 1 || !strings.Contains(sent[0].Message, "!pomoc") {
		t.Errorf("after the panic: %+v; want the !pomoc reply alone", sent)
	}
}

// An admin's !bot pauza holds the scheduled posts too: a slot due inside
// the pause is not posted, but counted (outcome paused) and logged; after
// the pause the next day's slot is posted.
func TestScheduledPostHeldByPause(t *testing.T) {
	t.Parallel()
	h, clock := botest.NewScheduled(t, "2026-12-02 07:59:57", map[string]string{"ADMINS": "ala=" + botest.Admin})
	h.Start()
	botest.Armed(t, clock)
	if got := h.Ask(botest.Admin, "", "!bot pauza 1h"); !strings.Contains(got.Message, "Pauza do ") {
		t.Fatalf("!bot pauza 1h: %q", got.Message)
	}
	clock.Set(botest.UTC("2026-12-02 08:00:00"))
	h.WaitPosts("paused", 1)
	h.WaitLog("scheduled post skipped: due inside an admin's pause")
	if n := len(h.Sim.Sent()); n != 1 {
		t.Errorf("%d sends; want only the pause's confirmation, no post", n)
	}
	if got := h.Ask(botest.Admin, "", "!bot pauza 0s"); !strings.Contains(got.Message, "Koniec pauzy") {
		t.Fatalf("!bot pauza 0s: %q", got.Message)
	}
	botest.Armed(t, clock)
	clock.Set(botest.UTC("2026-12-03 08:00:00"))
	h.WaitPosts("served", 1)
	if s := h.Sim.Sent(); len(s) != 3 || s[2].Group != "testbot" || len(s[2].Attachments) != 1 {
		t.Errorf("after the pause: %d sends, the last %+v; want the slot's picture in testbot", len(s), s[len(s)-1])
	}
}

// plan5760 is the densest plan one group takes: each of the four commands
// at every minute of the day.
func plan5760() string {
	var b strings.Builder
	for _, cmd := range []string{"pomoc", "ja", "cat", "kot"} {
		for m := range 24 * 60 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "testbot=%s@%02d:%02d", cmd, m/60, m%60)
		}
	}
	return b.String()
}

// A 5,760-slot plan is logged at start as a count and its first ten slots,
// not as one 260,752-byte line; no line the start logs reaches
// telemetry.MaxLogLine.
func TestScheduleStartLineBounded(t *testing.T) {
	t.Parallel()
	h, _ := botest.NewScheduled(t, "2026-12-02 07:59:57", map[string]string{"SCHEDULE": plan5760()})
	h.Start()
	var line string
	for _, l := range strings.Split(h.Logs.String(), "\n") {
		if len(l) >= telemetry.MaxLogLine {
			t.Errorf("a start line of %d bytes: %.120s…", len(l), l)
		}
		if strings.Contains(l, `msg="scheduled posts"`) {
			line = l
		}
	}
	if len(line) > 2048 || !strings.Contains(line, "slots=5760 ") || !strings.Contains(line, "more=5750 ") ||
		!strings.Contains(line, "testbot=cat@08:00 next 2026-12-02 08:00 UTC") {
		t.Errorf("the plan's line (%d bytes): %s; want the count, the next ten from 08:00 and how many more, within 2 KiB", len(line), line)
	}
}
