package admin

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
)

// bigPlan is a plan of n slots in testbot (or chat), a command each minute:
// at most 1,440 a command, so n ≤ 5,760 takes four.
func bigPlan(chat string, n int) string {
	slots := make([]string, n)
	for i := range slots {
		cmd := []string{"pomoc", "kot", "cat", "ja"}[i/1440]
		slots[i] = fmt.Sprintf("%s=%s@%02d:%02d", chat, cmd, i%1440/60, i%60)
	}
	return strings.Join(slots, ",")
}

var moreRE = regexp.MustCompile(`… (?:i jeszcze (\d+)|and (\d+) more)`)

// shownAndMore counts the slots of chat a reply names and the count of the
// others it gives (0 for none).
func shownAndMore(reply, chat string) (shown, more int) {
	if m := moreRE.FindStringSubmatch(reply); m != nil {
		more, _ = strconv.Atoi(m[1] + m[2])
	}
	return strings.Count(reply, chat+"="), more
}

// With 5,760 slots (issue 33.9), !bot plan, !bot status, a new plan's
// confirmation and a bad plan's reasons each answer within Signal's body
// limit, naming the first slots and how many more; every other reply of
// the console stays within it too. A plan of 20 or 30 slots is shown whole
// (issue 33.4).
func TestAdminRepliesWithinTheLimit(t *testing.T) {
	const n = 5760
	for _, lang := range commands.Languages() {
		d := testDeps(t)
		d.Lang = lang
		p := &memPlanner{plan: bigPlan("testbot", n), at: time.Now()}
		d.Planner = p
		c := newConsole(t, d)
		ask := func(args string) string {
			got := c.Answer(context.Background(), bot.AdminCall{Args: args, Admin: "ala", Now: time.Now()})
			if len(got) >= commands.MaxReplyBytes {
				t.Errorf("%s: !bot %.30s… answers %d bytes; want under %d", lang, args, len(got), commands.MaxReplyBytes)
			}
			return got
		}
		for _, tt := range []struct {
			args, chat string
			total      int // the slots the reply is about, shown or counted
			min        int // the least it should name
		}{
			{"plan", "testbot", n, 50},
			{"status", "testbot", n, 5},
			{"plan " + bigPlan("rodzina", n), "rodzina", n, 50},
			{"plan " + bigPlan("sąsiedzi", n), "sąsiedzi", n, 5},
			{"plan " + bigPlan("rodzina", 30), "rodzina", 30, 30},
			{"plan " + bigPlan("rodzina", 20), "rodzina", 20, 20},
		} {
			got := ask(tt.args)
			shown, more := shownAndMore(got, tt.chat)
			t.Logf("%s: !bot %.24s… (%d slots): %d bytes, %d named and %d more", lang, tt.args, tt.total, len(got), shown, more)
			if shown+more != tt.total || shown < tt.min {
				t.Errorf("%s: !bot %.30s… names %d slots and %d more; want %d in all, at least %d named:\n%s", lang, tt.args, shown, more, tt.total, tt.min, got)
			}
		}
		if p.plan != bigPlan("rodzina", 20) {
			t.Errorf("%s: the plan kept is %d bytes; want the 20 slots whole", lang, len(p.plan))
		}
		for _, args := range []string{"", "reset", "tekst", "cooldown pomoc 1m", "scope pomoc direct", "off pomoc", "on pomoc", "pauza 1h"} {
			ask(args)
		}
	}
}

func TestFitList(t *testing.T) {
	tx, err := textsFor("en", verbs())
	if err != nil {
		t.Fatal(err)
	}
	ten3 := []string{strings.Repeat("a", 10), strings.Repeat("b", 10), strings.Repeat("c", 10)}
	for _, tt := range []struct {
		items  []string
		more   int
		budget int
		want   string
	}{
		{nil, 0, 100, ""},
		{[]string{"a", "b", "c"}, 0, 100, "a, b, c"},
		{[]string{"a", "b", "c"}, 0, 7, "a, b, c"},
		{[]string{"a", "b", "c"}, 2, 100, "a, b, c, … and 2 more"},
		{[]string{"aaaa", "bbbb", "cccc"}, 0, 16, "aaaa, bbbb, cccc"},
		{ten3, 0, 34, strings.Join(ten3, ", ")},
		{ten3, 0, 33, ten3[0] + ", … and 2 more"},
		{ten3, 1, 37, ten3[0] + ", … and 3 more"},
		{ten3, 1, 38, ten3[0] + ", " + ten3[1] + ", … and 2 more"},
		{ten3, 0, 25, "… and 3 more"},
		{[]string{"aaaa", "bbbb"}, 1, 26, "aaaa, bbbb, … and 1 more"},
		{[]string{"aaaa", "bbbb"}, 1, 25, "aaaa, … and 2 more"},
	} {
		got := fitList(tt.items, tt.more, ", ", tt.budget, tx)
		if got != tt.want {
			t.Errorf("fitList(%q, %d, %d) = %q; want %q", tt.items, tt.more, tt.budget, got, tt.want)
		}
		if len(got) > tt.budget && !strings.HasPrefix(got, "…") {
			t.Errorf("fitList(%q, %d, %d) = %d bytes, over the budget", tt.items, tt.more, tt.budget, len(got))
		}
	}
}
