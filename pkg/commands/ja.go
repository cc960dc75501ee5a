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

// Ja is the "my stats" command: the sender's uses per command and any
// cooldown still running in this chat. It addresses the sender as "Ty"
// (you, KeyJaYou): the name signal-cli reports is, for a linked account, the label the
// operator's own address book gives the sender, which is not the bot's to
// tell a group. showName, the operator's opt-in (JA_SHOW_NAME), shows it.
func Ja(tallies TallyReader, cooldowns Cooldowns, showName bool) *Command {
	return &Command{
		Name: "ja", Aliases: []string{"me", "staty"}, Summary: Texts{}.Summary("ja"), Scope: Everywhere,
		Cooldown: 5 * time.Second,
		Run: func(_ context.Context, req Request) (Reply, error) {
			ts, err := tallies.Tallies(req.Sender)
			if err != nil {
				return Reply{Text: req.Texts.Internal()}, fmt.Errorf("!ja: %w", err)
			}
			var b strings.Builder
			name := req.Texts.Text(KeyJaYou)
			if showName && req.SenderName != "" {
				name = truncate(req.SenderName, 64)
			}
			b.WriteString(req.Texts.format(KeyJaHeader, name))
			if len(ts) == 0 {
				b.WriteString("\n" + req.Texts.Text(KeyJaNothing))
			}
			for _, t := range ts {
				fmt.Fprintf(&b, "\n!%s — %s", t.Command, req.Texts.Times(t.Count))
				c, ok := req.Registry.Get(t.Command)
				if !ok {
					continue
				}
				if left := t.Last.Add(cooldowns.Cooldown(req.Chat, c, req.Now)).Sub(req.Now); left > 0 && t.Command != req.Command.Name {
					b.WriteString(req.Texts.format(KeyJaAgain, Seconds(left)))
				}
			}
			return Reply{Text: b.String()}, nil
		},
	}
}
