package schedule

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Slot is one line of the plan: post Command's reply in the group Chat (a
// SIGNAL_GROUPS alias) every day at Hour:Minute, local time.
type Slot struct {
	Chat    string
	Command string
	Hour    int
	Minute  int
}

// String is the slot as SCHEDULE writes it: rodzina=kot@08:00. It is also
// the slot's key in the state file.
func (s Slot) String() string {
	return fmt.Sprintf("%s=%s@%02d:%02d", s.Chat, s.Command, s.Hour, s.Minute)
}

// on is the slot's time on the local date of t, in loc. A local time that
// does not exist that day (a clock moved forward) is normalised past the
// gap, as time.Date does; one that exists twice is the one time.Date picks,
// so the slot still comes once that day.
func (s Slot) on(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, s.Hour, s.Minute, 0, 0, loc)
}

// After is the slot's first time strictly after t.
func (s Slot) After(t time.Time, loc *time.Location) time.Time {
	at := s.on(t, loc)
	for i := 0; !at.After(t) && i < 3; i++ {
		y, m, d := at.In(loc).Date()
		at = time.Date(y, m, d+1, s.Hour, s.Minute, 0, 0, loc)
	}
	return at
}

// AtOrBefore is the slot's last time at or before t.
func (s Slot) AtOrBefore(t time.Time, loc *time.Location) time.Time {
	at := s.on(t, loc)
	for i := 0; at.After(t) && i < 3; i++ {
		y, m, d := at.In(loc).Date()
		at = time.Date(y, m, d-1, s.Hour, s.Minute, 0, 0, loc)
	}
	return at
}

// Problem is why Parse refuses a slot: a code, so that an admin's reply can
// say it in its own language (the Error text is English, for the log and
// the configuration's errors).
type Problem int

// The problems of a slot: Parse's, then Deps.Check's.
const (
	ProblemForm    Problem = iota + 1 // not chat=command@HH:MM
	ProblemTime                       // the time is not HH:MM, 00:00 to 23:59
	ProblemTwice                      // the same slot twice
	ProblemChat                       // the chat is no SIGNAL_GROUPS alias
	ProblemCommand                    // the command is none of the bot's
)

// SlotError is one slot of a plan Parse or Deps.Check refuses, as it was
// written. For ProblemChat and ProblemCommand, Name is the chat or command
// the slot names and Known the ones there are.
type SlotError struct {
	Item    string
	Problem Problem
	Name    string
	Known   []string
}

func (e *SlotError) Error() string {
	switch e.Problem {
	case ProblemTime:
		return fmt.Sprintf("%q: the time must be HH:MM, 00:00 to 23:59", e.Item)
	case ProblemTwice:
		return fmt.Sprintf("%q is listed twice", e.Item)
	case ProblemChat:
		return fmt.Sprintf("%s: no group alias %q in SIGNAL_GROUPS (the aliases: %s)", e.Item, e.Name, strings.Join(e.Known, ", "))
	case ProblemCommand:
		return fmt.Sprintf("%s: no command %q (the commands: %s)", e.Item, e.Name, strings.Join(e.Known, ", "))
	}
	return fmt.Sprintf("%q is not chat=command@HH:MM", e.Item)
}

// SlotErrors are the slots err refuses: the *SlotError values of Parse's,
// Check's or Replace's error, in the plan's order.
func SlotErrors(err error) []*SlotError {
	var se *SlotError
	switch e := err.(type) {
	case nil:
		return nil
	case interface{ Unwrap() []error }:
		var out []*SlotError
		for _, inner := range e.Unwrap() {
			out = append(out, SlotErrors(inner)...)
		}
		return out
	case *SlotError:
		return []*SlotError{e}
	default:
		if errors.As(err, &se) {
			return []*SlotError{se}
		}
		return nil
	}
}

// Parse reads a plan: comma-separated chat=command@HH:MM, for example
// "rodzina=kot@08:00,testbot=cat@12:30". The empty plan has no slots. A
// command may be written with its "!"; the same slot twice is an error.
// Whether the chat and the command exist is checked against the groups and
// the registry at start (Check).
func Parse(plan string) ([]Slot, error) {
	var out []Slot
	seen := map[string]bool{}
	var errs []error
	for item := range strings.SplitSeq(plan, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		s, err := parseSlot(item)
		switch {
		case err != nil:
			errs = append(errs, err)
		case seen[s.String()]:
			errs = append(errs, &SlotError{Item: s.String(), Problem: ProblemTwice})
		default:
			seen[s.String()] = true
			out = append(out, s)
		}
	}
	return out, errors.Join(errs...)
}

func parseSlot(item string) (Slot, error) {
	chat, rest, ok := strings.Cut(item, "=")
	command, at, ok2 := strings.Cut(rest, "@")
	chat, command = strings.TrimSpace(chat), strings.TrimPrefix(strings.TrimSpace(command), "!")
	if !ok || !ok2 || chat == "" || command == "" {
		return Slot{}, &SlotError{Item: item, Problem: ProblemForm}
	}
	hh, mm, ok := strings.Cut(strings.TrimSpace(at), ":")
	h, m := twoDigits(hh), twoDigits(mm)
	if !ok || h < 0 || m < 0 || h > 23 || m > 59 {
		return Slot{}, &SlotError{Item: item, Problem: ProblemTime}
	}
	return Slot{Chat: chat, Command: strings.ToLower(command), Hour: h, Minute: m}, nil
}

// twoDigits is s's value if it is two decimal digits, else -1.
func twoDigits(s string) int {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return -1
	}
	return int(s[0]-'0')*10 + int(s[1]-'0')
}

// parseChecked is Parse, then Check of every slot (chk nil: none): the
// slots with their canonical names, or every slot refused.
func parseChecked(plan string, chk func(Slot) (Slot, error)) ([]Slot, error) {
	slots, err := Parse(plan)
	if err != nil {
		return nil, err
	}
	var errs []error
	for i, sl := range slots {
		if slots[i], err = check(sl, chk); err != nil {
			errs = append(errs, err)
		}
	}
	return slots, errors.Join(errs...)
}

// check is chk(sl), its error naming the slot.
func check(sl Slot, chk func(Slot) (Slot, error)) (Slot, error) {
	if chk == nil {
		return sl, nil
	}
	c, err := chk(sl)
	if se := (*SlotError)(nil); err != nil && !errors.As(err, &se) { // a SlotError names its slot
		err = fmt.Errorf("%s: %w", sl, err)
	}
	if err != nil {
		return sl, err
	}
	return c, nil
}

// Format writes slots as Parse reads them.
func Format(slots []Slot) string {
	parts := make([]string, len(slots))
	for i, s := range slots {
		parts[i] = s.String()
	}
	return strings.Join(parts, ",")
}
