package admin_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/schedule"
	"signal-bot/pkg/sim"
)

// slots is a plan of n slots in testbot, a command each minute: four
// commands make the most, 5,760.
func slots(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("testbot=%s@%02d:%02d", []string{"pomoc", "kot", "cat", "ja"}[i/1440], i%1440/60, i%60)
	}
	return strings.Join(out, ",")
}

// An admin's !bot plan through the whole bot, from a message to the
// simulated REST API to the scheduler: 20 and 30 slots are kept whole, not
// cut at a command's 256 bytes of arguments (issue 33.4); 5,760 slots are
// kept, and the confirmation, !bot plan and !bot status each answer within
// Signal's body limit (issue 33.9); a plan longer than SCHEDULE may be is
// refused naming the limit, and the plan stays.
func TestAdminPlanThroughTheBot(t *testing.T) {
	const admin = "+48600000700"
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{
		"ADMINS": admin, "SCHEDULE": "testbot=kot@08:00", "TZ": "UTC",
	})
	h.Clock = schedule.NewManual(time.Date(2026, 12, 2, 7, 0, 0, 0, time.UTC)) // no slot comes while the test runs
	h.Start()
	ask := func(text string) string {
		t.Helper()
		n := len(h.Sim.Sent())
		h.Say(admin, "", text)
		got := h.WaitSent(n + 1)[n].Message
		if len(got) >= commands.MaxReplyBytes {
			t.Errorf("%.40s…: a reply of %d bytes; want under %d", text, len(got), commands.MaxReplyBytes)
		}
		return got
	}
	kept := func() string {
		s, _ := h.Bot.Scheduler().Plan()
		return schedule.Format(s)
	}
	for _, n := range []int{20, 30, 5760} {
		got := ask("!bot plan " + slots(n))
		if kept() != slots(n) {
			t.Errorf("!bot plan of %d slots: %d slots kept; want all", n, strings.Count(kept(), ",")+1)
		}
		if !strings.HasPrefix(got, "Nowy plan postów: testbot=pomoc@00:00, ") {
			t.Errorf("!bot plan of %d slots answered %q", n, got)
		}
		if n <= 30 && !strings.HasSuffix(got, strings.ReplaceAll(slots(n), ",", ", ")+".") {
			t.Errorf("!bot plan of %d slots answered %q; want every slot named", n, got)
		}
	}
	for _, text := range []string{"!bot plan", "!bot status", "!bot plan " + slots(5760)} {
		if got := ask(text); !strings.Contains(got, "… i jeszcze ") {
			t.Errorf("%.20s… with 5,760 slots answered %q; want the first slots and how many more", text, got)
		}
	}
	long := strings.Repeat("testbot=kot@08:00,", 8000) // 144,000 bytes, over SCHEDULE's 131,072
	if got := ask("!bot plan " + long); !strings.Contains(got, "najwyżej 131072") {
		t.Errorf("a plan of %d bytes answered %q; want the limit named", len(long), got)
	}
	if kept() != slots(5760) {
		t.Error("a refused plan changed the plan")
	}
}
