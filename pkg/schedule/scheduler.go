// Package schedule posts a command's reply into a group at set times of day
// (SCHEDULE, TZ, SCHEDULE_GRACE). Each slot posts at most once: the slot's
// "done up to" time is written to the state file and on disk before the post
// is handed to the bot, so neither a restart nor a kill -9 right after the
// send posts it again; a crash between the two loses that one post
// (docs/faults.md). A slot missed while the bot was down is posted once at
// start if it is at most SCHEDULE_GRACE late, else skipped. The bot sends the
// post as it sends a reply: the outbound budget, the 429 pause, the picture
// pools, and a trace of its own.
package schedule

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"signal-bot/pkg/store"
)

// Outcomes the scheduler counts itself (Deps.Count); the bot counts how the
// posts it was handed ended.
const (
	OutcomeSkipped    = "skipped"    // missed by more than SCHEDULE_GRACE
	OutcomePaused     = "paused"     // due inside an admin's pause (!bot pauza): not posted
	OutcomeUnrecorded = "unrecorded" // not posted: its record did not reach the disk
)

// onTime is how late a slot that came due while the bot ran may still be
// posted when SCHEDULE_GRACE is shorter: a busy machine or a suspended VM
// waking up is late, not down.
const onTime = time.Minute

// Post is one slot's time come: the bot posts Slot.Command's reply in Slot.Chat.
type Post struct {
	Slot Slot
	Due  time.Time
}

// Deps are what a Scheduler works with. Store and Post are required.
type Deps struct {
	Store *store.Store
	Clock Clock // nil: System
	// Post hands a post to the bot; it must not wait for the send.
	Post func(ctx context.Context, p Post)
	// Check resolves a slot's chat and command, answering the slot with the
	// command's canonical name, or why it cannot be posted (a *SlotError of
	// ProblemChat or ProblemCommand, which an admin's reply can say in its
	// language); nil: every slot.
	Check func(Slot) (Slot, error)
	Count func(outcome string) // nil: not counted
	Log   *slog.Logger         // nil: discarded
	// PausedUntil is the end of an admin's pause (!bot pauza) at now, the
	// zero time when there is none; nil: never paused. A slot due while a
	// pause is on is not posted: it is recorded as done, counted
	// (OutcomePaused) and logged.
	PausedUntil func(now time.Time) time.Time
}

// Scheduler fires the plan's slots. It is safe for concurrent use.
type Scheduler struct {
	d       Deps
	loc     *time.Location
	grace   time.Duration
	env     []Slot    // SCHEDULE's plan
	started time.Time // slots due before this were missed while the bot was down

	mu       sync.Mutex
	pauseLog pauseLog // the paused slots' log line, a minute at most
	slots    []Slot
	fromChat bool                 // slots were set in chat (Replace), not by SCHEDULE
	done     map[string]time.Time // slot → every time up to this one is done
	changed  chan struct{}        // cap 1: the plan changed, Run looks again
}

// New reads what the last process left in the state file and arms the slots
// it does not know: their times before now are not due. cfg is trusted
// (Config.Validate); a slot Check refuses is an error naming SCHEDULE.
func New(cfg Config, d Deps) (*Scheduler, error) {
	if d.Clock == nil {
		d.Clock = System{}
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Count == nil {
		d.Count = func(string) {}
	}
	loc, err := cfg.Location()
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	env, err := parseChecked(cfg.Plan, d.Check)
	if err != nil {
		return nil, fmt.Errorf("configuration: SCHEDULE: %w", err)
	}
	left, err := load(d.Store)
	if err != nil {
		return nil, fmt.Errorf("read the schedule's state: %w", err)
	}
	s := &Scheduler{d: d, loc: loc, grace: cfg.Grace, env: env, started: d.Clock.Now(),
		slots: env, done: left.done, changed: make(chan struct{}, 1)}
	if left.hasPlan {
		s.slots, s.fromChat = s.chatPlan(left.plan), true
	}
	fresh, forget := s.arm(s.slots)
	if len(forget) > 0 {
		fresh = append(fresh, planRecord{plan: left.plan, set: left.hasPlan, forget: forget})
	}
	_, _ = s.write(fresh...) // logged; the slots run from memory
	return s, nil
}

// chatPlan is the plan set in chat by a previous process, without the slots
// that no longer check (a group alias since removed from SIGNAL_GROUPS).
func (s *Scheduler) chatPlan(plan string) []Slot {
	slots, _ := Parse(plan)
	var out []Slot
	for _, sl := range slots {
		c, err := check(sl, s.d.Check)
		if err != nil {
			s.d.Log.Warn("scheduled slot set in chat dropped: it no longer checks", "slot", sl.String(), "err", err)
			continue
		}
		out = append(out, c)
	}
	return out
}

// arm marks the slots of a new plan that have no record as done up to now,
// and forgets the records of slots not in it: the records that says, with
// the slots forgotten (the plan's record carries them). s.mu is not held.
func (s *Scheduler) arm(slots []Slot) (fresh []store.Record, forget []string) {
	now := s.d.Clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	in := map[string]bool{}
	for _, sl := range slots {
		in[sl.String()] = true
		if _, ok := s.done[sl.String()]; !ok {
			s.done[sl.String()] = now
			fresh = append(fresh, doneRecord{sl.String(), now})
		}
	}
	for k := range s.done {
		if !in[k] {
			forget = append(forget, k)
			delete(s.done, k)
		}
	}
	return fresh, forget
}

// write queues recs for the state file and returns the last one's ticket,
// and the first error (a closed file; logged).
func (s *Scheduler) write(recs ...store.Record) (ticket uint64, err error) {
	for _, r := range recs {
		t, aerr := s.d.Store.Writer().Add(r)
		if aerr != nil {
			s.d.Log.Error("the schedule's state not written", "err", aerr)
			err = cmp.Or(err, aerr)
			continue
		}
		ticket = t
	}
	return ticket, err
}

// recheck bounds a wait for the next slot: the wall clock is read again at
// least this often, so a clock step (NTP) or a suspend, during which timers
// on the monotonic clock stand still, makes no slot late by more than this.
const recheck = time.Minute

// Run fires the slots as their times come, until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	for {
		now := s.d.Clock.Now()
		s.fireDue(ctx, now)
		var timer <-chan struct{}
		stop := func() {}
		if at, ok := s.nextAt(); ok {
			if limit := now.Add(recheck); at.After(limit) {
				at = limit
			}
			timer, stop = s.d.Clock.Timer(at)
		}
		select {
		case <-ctx.Done():
			stop()
			return
		case <-timer:
		case <-s.changed:
		}
		stop()
	}
}

// action is what fireDue decided for one slot.
type action struct {
	slot   Slot
	due    time.Time
	late   time.Duration
	post   bool
	paused time.Time // the end of the admin's pause the slot fell in; zero: none
}

// fireDue posts or skips every slot whose time has come by now. Of several
// missed times of one slot only the latest is looked at; the older ones are
// skipped with it.
func (s *Scheduler) fireDue(ctx context.Context, now time.Time) {
	pausedUntil := time.Time{}
	if s.d.PausedUntil != nil {
		pausedUntil = s.d.PausedUntil(now)
	}
	s.mu.Lock()
	var acts []action
	for _, sl := range s.slots {
		if s.nextOf(sl).After(now) {
			continue
		}
		due := sl.AtOrBefore(now, s.loc)
		late := now.Sub(due)
		ok := late <= s.grace || (!due.Before(s.started) && late <= max(s.grace, onTime))
		s.done[sl.String()] = due
		a := action{slot: sl, due: due, late: late, post: ok}
		if ok && due.Before(pausedUntil) {
			a.post, a.paused = false, pausedUntil
		}
		acts = append(acts, a)
	}
	s.mu.Unlock()
	for _, a := range acts {
		switch {
		case !a.paused.IsZero():
			s.skipPaused(a, now)
		case a.post:
			s.fire(ctx, a)
		default:
			s.skip(a)
		}
	}
}

// fire writes the slot's record and waits until it is on disk, then hands
// the post to the bot: at most once. A record that does not reach the disk
// means no post.
func (s *Scheduler) fire(ctx context.Context, a action) {
	w := s.d.Store.Writer()
	t, err := w.Add(doneRecord{a.slot.String(), a.due})
	if err == nil {
		err = w.Flush(ctx, t)
	}
	if err != nil {
		s.d.Count(OutcomeUnrecorded)
		s.d.Log.ErrorContext(ctx, "scheduled post not sent: its record did not reach the state file, and without it a restart could post it twice",
			"slot", a.slot.String(), "due", a.due, "err", err)
		return
	}
	s.d.Log.InfoContext(ctx, "scheduled post due", "slot", a.slot.String(), "due", a.due, "late", a.late.Round(time.Millisecond))
	s.d.Post(ctx, Post{Slot: a.slot, Due: a.due})
}

// skip records a slot missed by more than the grace, without posting it.
func (s *Scheduler) skip(a action) {
	_, _ = s.write(doneRecord{a.slot.String(), a.due}) // logged
	s.d.Count(OutcomeSkipped)
	s.d.Log.Info("scheduled post skipped: missed by more than SCHEDULE_GRACE",
		"slot", a.slot.String(), "due", a.due, "late", a.late.Round(time.Second), "grace", s.grace)
}

// nextOf is sl's first time not yet done; s.mu is held.
func (s *Scheduler) nextOf(sl Slot) time.Time { return sl.After(s.done[sl.String()], s.loc) }

// nextAt is the earliest time a slot comes; false: no slots.
func (s *Scheduler) nextAt() (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var at time.Time
	for _, sl := range s.slots {
		if t := s.nextOf(sl); at.IsZero() || t.Before(at) {
			at = t
		}
	}
	return at, !at.IsZero()
}
