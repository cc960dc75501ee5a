package commands

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Tally is one command's use count and last use by one sender.
type Tally struct {
	Command string
	Count   int64
	Last    time.Time
}

// TallyReader reads a sender's tallies, by command name. The state store is
// one, through the adapter the app wires in; commands need no more of it.
type TallyReader interface {
	Tallies(sender string) ([]Tally, error)
}

// !ja's own texts.
const (
	KeyJaHeader  Key = "ja.header" // %[1]s: the sender, KeyJaYou unless JA_SHOW_NAME
	KeyJaYou     Key = "ja.you"
	KeyJaNothing Key = "ja.nothing"
	KeyJaAgain   Key = "ja.again"   // %[1]s: the wait (Seconds)
	KeyTimesOne  Key = "times.one"  // a count of 1
	KeyTimesMany Key = "times.many" // %[1]d: any other count
)

// jaPhrases are !ja's texts in each language.
func jaPhrases() Phrases {
	return Phrases{
		"pl": {SummaryKey("ja"): "twoje statystyki", NameKey("ja"): "ja", KeyJaHeader: "Statystyki: %[1]s", KeyJaYou: "Ty",
			KeyJaNothing: "Jeszcze nic.", KeyJaAgain: ", znów za %[1]s", KeyTimesOne: "1 raz", KeyTimesMany: "%[1]d razy"},
		"en": {SummaryKey("ja"): "your stats", NameKey("ja"): "me", KeyJaHeader: "Stats: %[1]s", KeyJaYou: "you",
			KeyJaNothing: "Nothing yet.", KeyJaAgain: ", again in %[1]s", KeyTimesOne: "1 time", KeyTimesMany: "%[1]d times"},
	}
}

// Ja is the "my stats" command: the sender's uses per command and any
// cooldown still running in this chat. It addresses the sender as "Ty"
// (you, KeyJaYou): the name signal-cli reports is, for a linked account, the label the
// operator's own address book gives the sender, which is not the bot's to
// tell a group. showName, the operator's opt-in (JA_SHOW_NAME), shows it.
func Ja(tallies TallyReader, cooldowns Cooldowns, showName bool) *Command {
	ph := jaPhrases()
	return &Command{
		Name: "ja", Aliases: []string{"me", "staty"}, Phrases: ph, Summary: ph["pl"][SummaryKey("ja")], Scope: Everywhere,
		Cooldown: 5 * time.Second,
		Run: func(_ context.Context, req Request) (Reply, error) {
			ts, err := tallies.Tallies(req.Sender)
			if err != nil {
				return Reply{Text: req.Texts.Internal()}, fmt.Errorf("!ja: %w", err)
			}
			var b strings.Builder
			name := ph.Say(req.Texts, KeyJaYou)
			if showName && req.SenderName != "" {
				name = truncate(req.SenderName, 64)
			}
			b.WriteString(ph.Say(req.Texts, KeyJaHeader, name))
			if len(ts) == 0 {
				b.WriteString("\n" + ph.Say(req.Texts, KeyJaNothing))
			}
			for _, t := range ts {
				c, ok := req.Registry.Get(t.Command)
				if !ok {
					fmt.Fprintf(&b, "\n!%s — %s", t.Command, times(ph, req.Texts, t.Count))
					continue
				}
				fmt.Fprintf(&b, "\n!%s — %s", c.NameIn(req.Texts.Lang()), times(ph, req.Texts, t.Count))
				if left := t.Last.Add(cooldowns.Cooldown(req.Chat, c, req.Now)).Sub(req.Now); left > 0 && t.Command != req.Command.Name {
					b.WriteString(ph.Say(req.Texts, KeyJaAgain, Seconds(left)))
				}
			}
			return Reply{Text: b.String()}, nil
		},
	}
}

// times is a count of "times": 1 raz, 2 razy; 1 time, 2 times.
func times(ph Phrases, t Texts, n int64) string {
	if n == 1 {
		return ph.Say(t, KeyTimesOne)
	}
	return ph.Say(t, KeyTimesMany, n)
}
