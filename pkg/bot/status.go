package bot

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalid"
)

// StatusInfo is what !bot status reports that the bot does not know by
// itself; the zero StatusInfo leaves those parts out or empty.
type StatusInfo struct {
	Version     string
	Started     time.Time
	ReceiveMode string      // websocket or webhook
	Connected   func() bool // nil: reported as not connected
}

// maxStatusGroups bounds the groups whose budget !bot status lists, so the
// reply stays under Signal's 2000 bytes.
const maxStatusGroups = 10

// statusLine is one line of !bot status.
type statusLine func(b *Bot, now time.Time, t commands.Texts) string

// statusLines are !bot status's lines, in order: a line is one entry here,
// with its text in both tables. A line that returns "" is left out.
func statusLines() []statusLine {
	return []statusLine{
		(*Bot).statusVersion, (*Bot).statusReceive, (*Bot).statusQueue, (*Bot).statusBudget,
		(*Bot).status429, (*Bot).statusPause, (*Bot).statusJournal, (*Bot).statusChanges,
		(*Bot).statusSchedule,
	}
}

func (b *Bot) adminStatus(_ context.Context, r adminReq) string {
	var lines []string
	for _, l := range statusLines() {
		if s := l(b, r.now, r.texts); s != "" {
			lines = append(lines, s)
		}
	}
	return strings.Join(lines, "\n")
}

// age renders how long ago t was, to the second.
func age(now, t time.Time) string { return now.Sub(t).Round(time.Second).String() }

func (b *Bot) statusVersion(now time.Time, t commands.Texts) string {
	return t.Format(commands.KeyStatusVersion, b.d.Status.Version, age(now, b.d.Status.Started))
}

func (b *Bot) statusReceive(now time.Time, t commands.Texts) string {
	up := t.Text(commands.KeyStatusDown)
	if b.d.Status.Connected != nil && b.d.Status.Connected() {
		up = t.Text(commands.KeyStatusUp)
	}
	last := t.Text(commands.KeyStatusNever)
	if b.intake != nil {
		if at := b.intake.Heard().LastFrameAt; at != nil {
			last = t.Format(commands.KeyStatusAgo, age(now, *at))
		}
	}
	return t.Format(commands.KeyStatusReceive, b.d.Status.ReceiveMode, up, last)
}

func (b *Bot) statusQueue(_ time.Time, t commands.Texts) string {
	if b.intake == nil {
		return ""
	}
	s := b.intake.Stats()
	return t.Format(commands.KeyStatusQueue, s.Depth, s.Capacity, s.Active, s.Limit, s.Dropped)
}

// statusBudget lists what each configured group holds of its reply budget
// (at most maxStatusGroups, by alias).
func (b *Bot) statusBudget(now time.Time, t commands.Texts) string {
	aliases := b.d.Groups.Aliases()
	n, per, _, ok := b.d.Gate.ChatBudget("", now)
	if !ok {
		return t.Text(commands.KeyStatusBudgetOff)
	}
	var left []string
	for i, alias := range slices.Sorted(maps.Keys(aliases)) {
		if i == maxStatusGroups {
			left = append(left, fmt.Sprintf("… (+%d)", len(aliases)-i))
			break
		}
		_, _, tokens, _ := b.d.Gate.ChatBudget(signalid.RESTGroupID(aliases[alias]), now)
		left = append(left, fmt.Sprintf("%s %.0f/%d", alias, tokens, n))
	}
	if len(left) == 0 {
		left = append(left, t.Text(commands.KeyStatusNone))
	}
	return t.Format(commands.KeyStatusBudget, n, per.String(), strings.Join(left, ", "))
}

func (b *Bot) status429(now time.Time, t commands.Texts) string {
	last := t.Text(commands.KeyStatusNever)
	if at := b.d.Gate.Last429(); !at.IsZero() {
		last = stamp(at)
	}
	line := t.Format(commands.KeyStatus429, last)
	if until := b.d.Gate.PausedUntil(now); !until.IsZero() {
		line += "; " + t.Format(commands.KeyStatusSendPause, stamp(until))
	}
	return line
}

func (b *Bot) statusPause(now time.Time, t commands.Texts) string {
	if until := b.settings.changes.PausedUntil(now); !until.IsZero() {
		return t.Format(commands.KeyStatusPause, stamp(until))
	}
	return ""
}

func (b *Bot) statusJournal(_ time.Time, t commands.Texts) string {
	if b.intake == nil || b.intake.journal == nil {
		return t.Text(commands.KeyStatusJournalOff)
	}
	s := b.intake.journal.Stats()
	return t.Format(commands.KeyStatusJournal, s.Pending, s.Replayed)
}

func (b *Bot) statusChanges(now time.Time, t commands.Texts) string {
	desc := describeChanges(b.settings.changes.Set(now))
	if b.planChanged() {
		desc = strings.TrimPrefix(desc+", plan", ", ")
	}
	if desc == "" {
		desc = t.Text(commands.KeyStatusNone)
	}
	return t.Format(commands.KeyStatusChanges, desc)
}

// describeChanges lists a change set in the subcommands' own words, which
// are the same in every language: "cooldown kot=1m0s, scope cat=groups,
// off ja"; "" for none. The pause has a line of its own.
func describeChanges(s ChangeSet) string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(s.Cooldowns)) {
		out = append(out, "cooldown "+name+"="+s.Cooldowns[name].String())
	}
	for _, name := range slices.Sorted(maps.Keys(s.Scopes)) {
		out = append(out, "scope "+name+"="+s.Scopes[name])
	}
	for _, name := range slices.Sorted(maps.Keys(s.Off)) {
		out = append(out, "off "+name)
	}
	return strings.Join(out, ", ")
}
