package app

import (
	"context"
	"maps"
	"slices"
	"strings"

	"signal-bot/pkg/admin"
	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/schedule"
)

// newScheduler builds the scheduled posts of SCHEDULE (or of the plan an
// admin set in chat, kept in the state file) over the intake: each slot's
// chat must be a SIGNAL_GROUPS alias and its command one of reg's, checked
// here once, naming SCHEDULE. The admins' console reads it as its planner
// (!bot status, !bot plan; newConsole). Nothing in it needs closing; Run runs it.
func newScheduler(cfg config.Config, clock schedule.Clock, p botParts, reg *commands.Registry, intake *bot.Intake) (*schedule.Scheduler, error) {
	groups := p.safety.groups
	s, err := schedule.New(cfg.Schedule, schedule.Deps{
		Store: p.state.store, Clock: clock, Count: p.metrics.ScheduledPost, Log: p.log,
		PausedUntil: p.changes.PausedUntil, // !bot pauza holds the posts too
		Check:       func(sl schedule.Slot) (schedule.Slot, error) { return checkSlot(sl, groups, reg) },
		Post: func(ctx context.Context, po schedule.Post) {
			_, _ = intake.Post(ctx, bot.Post{ // a refusal is counted and logged there
				Slot: po.Slot.String(), Alias: po.Slot.Chat, GroupID: groups.ID(po.Slot.Chat), Command: po.Slot.Command,
			})
		},
	})
	if err != nil {
		return nil, err
	}
	if next := s.Next(); len(next) > 0 {
		shown := next[:min(len(next), logSlots)]
		at := make([]string, len(shown))
		for i, d := range shown {
			at[i] = d.Slot.String() + " next " + d.At.Format("2006-01-02 15:04 MST")
		}
		_, fromChat := s.Plan()
		p.log.Info("scheduled posts", "slots", len(next), "next", strings.Join(at, "; "), "more", len(next)-len(shown),
			"zone", s.Location().String(), "grace", cfg.Schedule.Grace, "set_in_chat", fromChat)
	}
	return s, nil
}

// logSlots is how many of the plan's next slots the start's line names: a
// plan may hold thousands (5,760 made a 260,752-byte line), and !bot plan
// and !bot status show them.
const logSlots = 10

// checkSlot resolves a slot's chat against the configured groups and its
// command (or alias) to the command's name; a slot it refuses is a
// *schedule.SlotError naming what there is.
func checkSlot(sl schedule.Slot, groups bot.Groups, reg *commands.Registry) (schedule.Slot, error) {
	if groups.ID(sl.Chat) == "" {
		aliases := slices.Sorted(maps.Keys(groups.Aliases()))
		return sl, &schedule.SlotError{Item: sl.String(), Problem: schedule.ProblemChat, Name: sl.Chat, Known: aliases}
	}
	cmd, ok := reg.Resolve(sl.Command)
	if !ok {
		names := make([]string, 0, len(reg.All()))
		for _, c := range reg.All() {
			names = append(names, c.Name)
		}
		return sl, &schedule.SlotError{Item: sl.String(), Problem: schedule.ProblemCommand, Name: sl.Command, Known: names}
	}
	sl.Command = cmd.Name
	return sl, nil
}

// planner is the scheduler as the admins' console reads it (admin.Planner).
type planner struct{ s *schedule.Scheduler }

func (p planner) Next() []admin.NextPost {
	next := p.s.Next()
	out := make([]admin.NextPost, len(next))
	for i, d := range next {
		out[i] = admin.NextPost{Slot: d.Slot.String(), At: d.At.In(p.s.Location())}
	}
	return out
}

func (p planner) Plan() (string, bool) {
	slots, fromChat := p.s.Plan()
	return schedule.Format(slots), fromChat
}

// Check is the scheduler's: the console says each *schedule.SlotError in
// the admin's language.
func (p planner) Check(plan string) error { return p.s.Check(plan) }

func (p planner) Replace(ctx context.Context, plan string) error { return p.s.Replace(ctx, plan) }
func (p planner) Reset(ctx context.Context) error                { return p.s.Reset(ctx) }

// Scheduler is the scheduled posts' plan and next slots, for an admin's
// commands (!bot status, !bot plan) and the tests.
func (a *App) Scheduler() *schedule.Scheduler { return a.sched }
