package admin

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalid"
)

// Figures are the bot's figures !bot status reads; *bot.Intake is one.
type Figures interface {
	Heard() bot.Heard                    // when the last frame came
	Stats() pipeline.Stats               // the queue and the slots
	JournalStats() (journal.Stats, bool) // the journal of accepted frames; false: none
}

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
type statusLine func(c *Console, now time.Time, t texts) string

// statusLines are !bot status's lines, in order: a line is one entry here,
// with its text in the texts of its verb's file. A line that returns "" is
// left out.
func statusLines() []statusLine {
	return []statusLine{
		(*Console).statusVersion, (*Console).statusReceive, (*Console).statusQueue, (*Console).statusBudget,
		(*Console).status429, (*Console).statusCaptcha, (*Console).statusUnreachable, (*Console).statusPause,
		(*Console).statusJournal, (*Console).statusChanges, (*Console).statusSchedule,
	}
}

// status is !bot status: the lines of statusLines, cut at the end to fit one
// reply: what is cut is the tail of the long lists that come last, the
// changes made in chat and the next posts (!bot plan shows the posts whole).
func (c *Console) status(_ context.Context, r request) string {
	var lines []string
	for _, l := range statusLines() {
		if s := l(c, r.now, r.t); s != "" {
			lines = append(lines, s)
		}
	}
	out := strings.Join(lines, "\n")
	if len(out) >= commands.MaxReplyBytes {
		out = commands.Truncate(out, commands.MaxReplyBytes-1-len(cut)) + cut
	}
	return out
}

// cut ends a reply cut to fit.
const cut = "…"

// age renders how long ago t was, to the second.
func age(now, t time.Time) string { return now.Sub(t).Round(time.Second).String() }

func (c *Console) statusVersion(now time.Time, t texts) string {
	return t.format(keyStatusVersion, c.d.Status.Version, age(now, c.d.Status.Started))
}

func (c *Console) statusReceive(now time.Time, t texts) string {
	up := t.text(keyStatusDown)
	if c.d.Status.Connected != nil && c.d.Status.Connected() {
		up = t.text(keyStatusUp)
	}
	last := t.text(keyStatusNever)
	if c.d.Figures != nil {
		if at := c.d.Figures.Heard().LastFrameAt; at != nil {
			last = t.format(keyStatusAgo, age(now, *at))
		}
	}
	return t.format(keyStatusReceive, c.d.Status.ReceiveMode, up, last)
}

func (c *Console) statusQueue(_ time.Time, t texts) string {
	if c.d.Figures == nil {
		return ""
	}
	s := c.d.Figures.Stats()
	return t.format(keyStatusQueue, s.Depth, s.Capacity, s.Active, s.Limit, s.Dropped)
}

// statusBudget lists what each configured group holds of its reply budget
// (at most maxStatusGroups, by alias).
func (c *Console) statusBudget(now time.Time, t texts) string {
	aliases := c.d.Groups.Aliases()
	n, per, _, ok := c.d.Gate.ChatBudget("", now)
	if !ok {
		return t.text(keyStatusBudgetOff)
	}
	var left []string
	for i, alias := range slices.Sorted(maps.Keys(aliases)) {
		if i == maxStatusGroups {
			left = append(left, t.format(keyMore, len(aliases)-i))
			break
		}
		_, _, tokens, _ := c.d.Gate.ChatBudget(signalid.RESTGroupID(aliases[alias]), now)
		left = append(left, fmt.Sprintf("%s %.0f/%d", alias, tokens, n))
	}
	if len(left) == 0 {
		left = append(left, t.text(keyNone))
	}
	return t.format(keyStatusBudget, n, per.String(), strings.Join(left, ", "))
}

func (c *Console) status429(now time.Time, t texts) string {
	last := t.text(keyStatusNever)
	if at := c.d.Gate.Last429(); !at.IsZero() {
		last = stamp(at)
	}
	line := t.format(keyStatus429, last)
	if until := c.d.Gate.PausedUntil(now); !until.IsZero() {
		line += "; " + t.format(keyStatusSendPause, stamp(until))
	}
	return line
}

// statusUnreachable is the line of the members replies do not reach, by
// why, since the oldest of them; with a changed safety number, what to do.
func (c *Console) statusUnreachable(now time.Time, t texts) string {
	if c.d.Account == nil {
		return ""
	}
	u := c.d.Account.Unreachable()
	if u.Members == 0 {
		return ""
	}
	var why []string
	for _, r := range []struct {
		label string
		k     key
	}{{"identity", keyStatusIdentity}, {"unregistered", keyStatusUnregistered}} {
		if n := u.ByReason[r.label]; n > 0 {
			why = append(why, t.format(r.k, n))
		}
	}
	since := t.text(keyStatusNever)
	if u.Since != nil {
		since = stamp(*u.Since)
	}
	line := t.format(keyStatusUnreachable, u.Members, strings.Join(why, ", "), since)
	if u.Identity() > 0 {
		line += t.text(keyStatusTrust)
	}
	return line
}

func (c *Console) statusPause(now time.Time, t texts) string {
	if until := c.d.Changes.PausedUntil(now); !until.IsZero() {
		return t.format(keyStatusPause, stamp(until))
	}
	return ""
}

func (c *Console) statusJournal(_ time.Time, t texts) string {
	if c.d.Figures == nil {
		return t.text(keyStatusJournalOff)
	}
	s, ok := c.d.Figures.JournalStats()
	if !ok {
		return t.text(keyStatusJournalOff)
	}
	return t.format(keyStatusJournal, s.Pending, s.Replayed)
}

func (c *Console) statusChanges(now time.Time, t texts) string {
	desc := describeChanges(c.d.Changes.Set(now))
	if c.planChanged() {
		desc = append(desc, "plan")
	}
	if len(desc) == 0 {
		return t.format(keyStatusChanges, t.text(keyNone))
	}
	return t.format(keyStatusChanges, fitList(desc, 0, ", ", statusListBytes, t))
}

// describeChanges lists a change set in the verbs' own words, which are the
// same in every language: "cooldown kot=1m0s", "scope cat=groups", "off
// ja"; none for none. The pause has a line of its own.
func describeChanges(s ChangeSet) []string {
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
	return out
}
