package bot

import (
	"context"
	"strconv"
	"strings"
	"time"

	"signal-bot/pkg/commands"
)

// Planner is the scheduled posts (SCHEDULE) as the admin commands see them:
// !bot status lists the next slots, !bot plan shows and replaces the plan,
// !bot reset puts SCHEDULE's back. pkg/app adapts the scheduler to it.
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
// does the groups.
const maxStatusSlots = 10

// SetPlanner gives the bot the scheduled posts' planner. It is called once,
// after New and before the intake runs (the scheduler is built after the
// bot); without one !bot plan answers that there are no scheduled posts.
func (b *Bot) SetPlanner(p Planner) { b.planner = p }

// noPlan is how an admin writes the empty plan: !bot plan -.
const noPlan = "-"

// adminPlan shows the plan in force, or, with arguments, replaces it.
func (b *Bot) adminPlan(ctx context.Context, r adminReq) string {
	if b.planner == nil {
		return r.texts.Text(commands.KeyBotPlanOff)
	}
	if len(r.args) == 0 {
		plan, fromChat := b.planner.Plan()
		from := r.texts.Text(commands.KeyBotPlanEnv)
		if fromChat {
			from = r.texts.Text(commands.KeyBotPlanChat)
		}
		return r.texts.Format(commands.KeyBotPlan, planText(plan, r.texts), from)
	}
	plan := strings.Join(r.args, " ")
	if plan == noPlan {
		plan = ""
	}
	if err := b.planner.Check(plan); err != nil {
		return r.texts.Format(commands.KeyBotBadPlan, commands.Truncate(err.Error(), 300))
	}
	err := b.planner.Replace(ctx, plan)
	kept, _ := b.planner.Plan()
	done := r.texts.Format(commands.KeyBotPlanSet, planText(kept, r.texts))
	return b.changed(ctx, r, err, done, "change", "plan", "plan", kept)
}

// planText is a plan for an admin: commas spaced, or KeyStatusNone.
func planText(plan string, t commands.Texts) string {
	if plan == "" {
		return t.Text(commands.KeyStatusNone)
	}
	return strings.ReplaceAll(plan, ",", ", ")
}

// resetPlan puts SCHEDULE's plan back, for !bot reset; nil without a
// planner.
func (b *Bot) resetPlan(ctx context.Context) error {
	if b.planner == nil {
		return nil
	}
	return b.planner.Reset(ctx)
}

// planChanged tells whether the plan in force was set in chat: !bot
// status lists it among the changes.
func (b *Bot) planChanged() bool {
	if b.planner == nil {
		return false
	}
	_, fromChat := b.planner.Plan()
	return fromChat
}

// statusSchedule lists the next slots: "testbot=kot@08:00 2026-12-03 08:00
// CET, …" (at most maxStatusSlots), or KeyStatusNone.
func (b *Bot) statusSchedule(_ time.Time, t commands.Texts) string {
	var next []NextPost
	if b.planner != nil {
		next = b.planner.Next()
	}
	var out []string
	for i, n := range next {
		if i == maxStatusSlots {
			out = append(out, "… (+"+strconv.Itoa(len(next)-i)+")")
			break
		}
		out = append(out, n.Slot+" "+n.At.Format("2006-01-02 15:04 MST"))
	}
	if len(out) == 0 {
		out = append(out, t.Text(commands.KeyStatusNone))
	}
	return t.Format(commands.KeyStatusSchedule, strings.Join(out, ", "))
}
