package admin

import (
	"context"
	"strings"
	"time"
)

// Planner is the scheduled posts (SCHEDULE) as the console sees them: !bot
// status lists the next slots, !bot plan shows and replaces the plan, !bot
// reset puts SCHEDULE's back. pkg/app adapts the scheduler to it.
type Planner interface {
	// Next is every slot's next time, soonest first, in the plan's zone.
	Next() []NextPost
	// Plan is the plan in force as SCHEDULE writes it ("" for none), and
	// whether it was set in chat.
	Plan() (plan string, fromChat bool)
	// Check tells why Replace would refuse plan; nil when it would take it.
	Check(plan string) error
	// Replace puts plan in force and returns once it is on disk.
	Replace(ctx context.Context, plan string) error
	// Reset puts SCHEDULE's plan back in force.
	Reset(ctx context.Context) error
}

// NextPost is a slot ("rodzina=kot@08:00") and its next time.
type NextPost struct {
	Slot string
	At   time.Time
}

// maxStatusSlots bounds the slots !bot status lists, as maxStatusGroups
// does the groups; statusListBytes bounds a line that lists, so that the
// whole status stays within a reply.
const (
	maxStatusSlots  = 10
	statusListBytes = 500
)

// noPlan is how an admin writes the empty plan: !bot plan -.
const noPlan = "-"

const (
	keyPlan     key = "bot.plan"        // %[1]s: the plan or keyNone, %[2]s: keyPlanChat or keyPlanEnv
	keyPlanChat key = "bot.plan_chat"   //
	keyPlanEnv  key = "bot.plan_env"    //
	keyPlanSet  key = "bot.plan_set"    // %[1]s: the plan or keyNone
	keyBadPlan  key = "bot.bad_plan"    // %[1]s: why
	keyPlanOff  key = "bot.plan_off"    // no scheduler in this bot
	keySchedule key = "status.schedule" // %[1]s: "slot time, …" or keyNone
)

func planTexts() phrases {
	return merge(planErrTexts(), phrases{
		"pl": {
			usageKey("plan"): "• !bot plan [<plan>] — posty o stałych porach: pokazuje plan albo go zastępuje, np. !bot plan rodzina=kot@08:00,testbot=cat@12:30 (-: żadnych)",
			keyPlan:          "Plan postów: %[1]s (%[2]s).",
			keyPlanChat:      "ustawiony w czacie, !bot reset wraca do SCHEDULE",
			keyPlanEnv:       "z SCHEDULE",
			keyPlanSet:       "Nowy plan postów: %[1]s.",
			keyBadPlan:       "Zły plan: %[1]s.",
			keyPlanOff:       "Posty o stałych porach nie działają w tym bocie.",
			keySchedule:      "najbliższe posty: %[1]s",
		},
		"en": {
			usageKey("plan"): "• !bot plan [<plan>] — scheduled posts: shows the plan or replaces it, e.g. !bot plan rodzina=kot@08:00,testbot=cat@12:30 (-: none)",
			keyPlan:          "Scheduled posts: %[1]s (%[2]s).",
			keyPlanChat:      "set in chat, !bot reset goes back to SCHEDULE",
			keyPlanEnv:       "from SCHEDULE",
			keyPlanSet:       "New plan of posts: %[1]s.",
			keyBadPlan:       "Bad plan: %[1]s.",
			keyPlanOff:       "Scheduled posts do not work in this bot.",
			keySchedule:      "next posts: %[1]s",
		},
	})
}

// plan is !bot plan [<plan>]: shows the plan in force, or, with arguments,
// replaces it.
func (c *Console) plan(ctx context.Context, r request) string {
	p := c.d.Planner
	if p == nil {
		return r.t.text(keyPlanOff)
	}
	if len(r.args) == 0 {
		plan, fromChat := p.Plan()
		from := r.t.text(keyPlanEnv)
		if fromChat {
			from = r.t.text(keyPlanChat)
		}
		return r.t.withList(keyPlan, maxReply, planText(plan, r.t), from)
	}
	plan := strings.Join(r.args, " ")
	if plan == noPlan {
		plan = ""
	}
	if len(plan) > maxPlanBytes {
		return r.t.format(keyPlanLong, len(plan), maxPlanBytes)
	}
	if err := p.Check(plan); err != nil {
		return r.t.withList(keyBadPlan, maxReply, planReasons(err, r.t))
	}
	err := p.Replace(ctx, plan)
	kept, _ := p.Plan()
	done := r.t.withList(keyPlanSet, maxReply, planText(kept, r.t))
	return c.changed(ctx, r, err, done, "change", "plan", "plan", kept)
}

// planText lists a plan's slots for an admin, as many as fit in a budget of
// bytes: commas spaced, or keyNone.
func planText(plan string, t texts) func(budget int) string {
	return func(budget int) string {
		if plan == "" {
			return t.text(keyNone)
		}
		return fitList(strings.Split(plan, ","), 0, ", ", budget, t)
	}
}

// resetPlan puts SCHEDULE's plan back, for !bot reset; nil without a
// planner.
func (c *Console) resetPlan(ctx context.Context) error {
	if c.d.Planner == nil {
		return nil
	}
	return c.d.Planner.Reset(ctx)
}

// planChanged tells whether the plan in force was set in chat: !bot
// status lists it among the changes.
func (c *Console) planChanged() bool {
	if c.d.Planner == nil {
		return false
	}
	_, fromChat := c.d.Planner.Plan()
	return fromChat
}

// statusSchedule is !bot status's line of the next slots: "testbot=kot@08:00
// 2026-12-03 08:00 CET, …" (at most maxStatusSlots, as many as fit in
// statusListBytes), or keyNone.
func (c *Console) statusSchedule(_ time.Time, t texts) string {
	var next []NextPost
	if c.d.Planner != nil {
		next = c.d.Planner.Next()
	}
	if len(next) == 0 {
		return t.format(keySchedule, t.text(keyNone))
	}
	shown := next[:min(len(next), maxStatusSlots)]
	out := make([]string, len(shown))
	for i, n := range shown {
		out[i] = n.Slot + " " + n.At.Format("2006-01-02 15:04 MST")
	}
	line := fitList(out, len(next)-len(shown), ", ", statusListBytes, t)
	return t.format(keySchedule, line)
}
