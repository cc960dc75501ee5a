package commands

import (
	"context"
	"strings"
	"time"
)

// Pomoc is the help command: generated from the request's registry, listing
// only what answers in the asking chat, with the cooldowns in effect there.
func Pomoc(cooldowns Cooldowns) *Command {
	return &Command{
		Name: "pomoc", Aliases: []string{"help", "pomocy"}, Summary: Texts{}.Summary("pomoc"), Scope: Everywhere,
		Cooldown: 10 * time.Second,
		Run: func(_ context.Context, req Request) (Reply, error) {
			var b strings.Builder
			b.WriteString(req.Texts.Text(KeyHelpHeader))
			for _, c := range req.Registry.Allowed(req.Chat) {
				b.WriteString("\n!" + c.Name + " — " + c.Summary)
				if cd := cooldowns.Cooldown(req.Chat, c, req.Now); cd > 0 {
					b.WriteString(req.Texts.format(KeyHelpEvery, Seconds(cd)))
				}
			}
			return Reply{Text: b.String()}, nil
		},
	}
}

// Cooldowns gives a command's cooldown in a chat at a time: configured, or
// switched off by an override. The bot's override set is one.
type Cooldowns interface {
	Cooldown(chat Chat, c *Command, now time.Time) time.Duration
}
