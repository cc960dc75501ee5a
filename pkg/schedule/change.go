package schedule

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// What an admin's chat commands read and change: the next slots, the plan.

// Due is a slot's next time.
type Due struct {
	Slot Slot
	At   time.Time
}

// Next lists every slot's next time, soonest first: what !bot status shows.
func (s *Scheduler) Next() []Due {
	s.mu.Lock()
	out := make([]Due, 0, len(s.slots))
	for _, sl := range s.slots {
		out = append(out, Due{Slot: sl, At: s.nextOf(sl)})
	}
	s.mu.Unlock()
	slices.SortStableFunc(out, func(a, b Due) int { return a.At.Compare(b.At) })
	return out
}

// Plan is the plan in force, and whether it was set in chat (Replace)
// rather than by SCHEDULE.
func (s *Scheduler) Plan() (slots []Slot, fromChat bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.slots), s.fromChat
}

// Location is the zone the slots' times are in (TZ).
func (s *Scheduler) Location() *time.Location { return s.loc }

// Check tells why Replace would refuse plan: a slot that does not parse or
// check (an unknown group alias or command); nil when it would take it.
func (s *Scheduler) Check(plan string) error {
	_, err := parseChecked(plan, s.d.Check)
	return err
}

// Replace puts plan (Parse's form) in force in place of the current one and
// keeps it in the state file, where it wins over SCHEDULE until Reset; it
// returns once that is on disk. The new slots' times before now are not
// due; a slot kept keeps its record. A slot that does not check is an error,
// and the plan stays as it was.
func (s *Scheduler) Replace(ctx context.Context, plan string) error {
	slots, err := parseChecked(plan, s.d.Check)
	if err != nil {
		return err
	}
	return s.put(ctx, slots, true)
}

// Reset puts SCHEDULE's plan back in force, forgetting the one set in chat.
func (s *Scheduler) Reset(ctx context.Context) error { return s.put(ctx, s.env, false) }

func (s *Scheduler) put(ctx context.Context, slots []Slot, fromChat bool) error {
	plan := ""
	if fromChat {
		plan = Format(slots)
	}
	fresh, forget := s.arm(slots)
	ticket, err := s.write(append(fresh, planRecord{plan: plan, set: fromChat, forget: forget})...)
	s.mu.Lock()
	s.slots, s.fromChat = slices.Clone(slots), fromChat
	s.mu.Unlock()
	select {
	case s.changed <- struct{}{}:
	default:
	}
	if err == nil {
		err = s.d.Store.Writer().Wait(ctx, ticket)
	}
	if err != nil {
		return fmt.Errorf("keep the plan in the state file: %w", err)
	}
	return nil
}
