package admin

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/schedule"
)

// memPlanner is a Planner in memory: a plan is a string; a slot whose chat is
// not rodzina or testbot does not check, and failWrite fails Replace as a
// failing state file would.
type memPlanner struct {
	env, plan string
	fromChat  bool
	failWrite bool
	at        time.Time
}

func (p *memPlanner) Next() []NextPost {
	var out []NextPost
	for s := range strings.SplitSeq(p.plan, ",") {
		if s != "" {
			out = append(out, NextPost{Slot: s, At: p.at})
		}
	}
	return out
}

func (p *memPlanner) Plan() (string, bool) { return p.plan, p.fromChat }

// Check refuses, as the app's planner does, a slot without a time of
// HH:MM and one whose chat is neither rodzina nor testbot.
func (p *memPlanner) Check(plan string) error {
	var bad []error
	for s := range strings.SplitSeq(plan, ",") {
		s = strings.TrimSpace(s)
		chat, _, _ := strings.Cut(s, "=")
		switch {
		case s == "":
		case !hhmm.MatchString(s):
			bad = append(bad, &schedule.SlotError{Item: s, Problem: schedule.ProblemTime})
		case chat != "rodzina" && chat != "testbot":
			bad = append(bad, &schedule.SlotError{Item: s, Problem: schedule.ProblemChat, Name: chat, Known: []string{"rodzina", "testbot"}})
		}
	}
	if bad == nil {
		return nil
	}
	return errors.Join(bad...)
}

var hhmm = regexp.MustCompile(`@\d\d:\d\d$`)

func (p *memPlanner) Replace(_ context.Context, plan string) error {
	p.plan, p.fromChat = strings.ReplaceAll(plan, " ", ""), true
	if p.failWrite {
		return errors.New("keep the plan in the state file: disk full")
	}
	return nil
}

func (p *memPlanner) Reset(context.Context) error {
	p.plan, p.fromChat = p.env, false
	return nil
}

// !bot plan: what it shows, what it replaces and what it refuses; !bot
// status's line of the next posts; !bot reset's return to SCHEDULE.
func TestAdminPlan(t *testing.T) {
	at := time.Date(2026, 12, 3, 8, 0, 0, 0, time.FixedZone("CET", 3600))
	p := &memPlanner{env: "rodzina=kot@08:00", plan: "rodzina=kot@08:00", at: at}
	d := testDeps(t)
	d.Planner = p
	c := newConsole(t, d)
	ctx := context.Background()
	for _, tt := range []struct {
		args, want, wantPlan string
		failWrite            bool
	}{
		{"plan", "Plan postów: rodzina=kot@08:00 (z SCHEDULE).", "rodzina=kot@08:00", false},
		{"status", "najbliższe posty: rodzina=kot@08:00 2026-12-03 08:00 CET", "rodzina=kot@08:00", false},
		{"plan testbot=kot@12:30, rodzina=cat@07:00", "Nowy plan postów: testbot=kot@12:30, rodzina=cat@07:00.", "testbot=kot@12:30,rodzina=cat@07:00", false},
		{"PLAN", "Plan postów: testbot=kot@12:30, rodzina=cat@07:00 (ustawiony w czacie, !bot reset wraca do SCHEDULE).", "testbot=kot@12:30,rodzina=cat@07:00", false},
		{"status", "najbliższe posty: testbot=kot@12:30 2026-12-03 08:00 CET, rodzina=cat@07:00 2026-12-03 08:00 CET", "testbot=kot@12:30,rodzina=cat@07:00", false},
		{"status", "zmiany z czatu: plan\n", "testbot=kot@12:30,rodzina=cat@07:00", false},
		{"cooldown pomoc 1m", "!pomoc: co 1 min", "testbot=kot@12:30,rodzina=cat@07:00", false},
		{"status", "zmiany z czatu: cooldown pomoc=1m0s, plan\n", "testbot=kot@12:30,rodzina=cat@07:00", false},
		{"plan sąsiedzi=kot@08:00", `Zły plan: sąsiedzi=kot@08:00: nie ma grupy "sąsiedzi" w SIGNAL_GROUPS (są: rodzina, testbot).`, "testbot=kot@12:30,rodzina=cat@07:00", false},
		{"plan -", "Nowy plan postów: brak.", "", false},
		{"status", "najbliższe posty: brak", "", false},
		{"plan testbot=cat@09:00", "coś poszło nie tak", "testbot=cat@09:00", true},
		{"reset", "Zmiany z czatu usunięte", "rodzina=kot@08:00", false},
		{"plan", "(z SCHEDULE)", "rodzina=kot@08:00", false},
		{"status", "zmiany z czatu: brak\n", "rodzina=kot@08:00", false},
	} {
		p.failWrite = tt.failWrite
		got := c.Answer(ctx, bot.AdminCall{Args: tt.args, Admin: "ala", Now: at})
		if !strings.Contains(got, tt.want) {
			t.Errorf("!bot %s = %q; want it to contain %q", tt.args, got, tt.want)
		}
		if p.plan != tt.wantPlan {
			t.Errorf("after !bot %s: plan %q; want %q", tt.args, p.plan, tt.wantPlan)
		}
	}
}

// Without a planner (no scheduler): !bot plan says so, !bot status lists no
// posts, !bot reset still drops the other changes.
func TestAdminPlanWithoutPlanner(t *testing.T) {
	d := testDeps(t)
	d.Lang = "en"
	c := newConsole(t, d)
	ctx := context.Background()
	ask := func(args string) string {
		return c.Answer(ctx, bot.AdminCall{Args: args, Admin: "ala", Now: time.Now()})
	}
	if got := ask("plan"); got != "Scheduled posts do not work in this bot." {
		t.Errorf("!bot plan = %q", got)
	}
	if got := ask("status"); !strings.Contains(got, "next posts: none") {
		t.Errorf("!bot status = %q; want next posts: none", got)
	}
	if got := ask("reset"); !strings.Contains(got, "Changes made in chat dropped") {
		t.Errorf("!bot reset = %q", got)
	}
}
