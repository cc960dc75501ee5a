package commands

import (
	"context"
	"strings"
	"time"
)

// Pomoc is the help command: generated from reg, listing only what answers
// in the asking chat, with cooldowns.
func Pomoc(reg func() *Registry, cooldown CooldownFunc) *Command {
	return &Command{
		Name: "pomoc", Aliases: []string{"help", "pomocy"}, Summary: "ta lista", Scope: Everywhere,
		Run: func(_ context.Context, req Request) (Reply, error) {
			var b strings.Builder
			b.WriteString("Komendy w tym czacie:")
			for _, c := range reg().Allowed(req.Chat) {
				b.WriteString("\n!" + c.Name + " — " + c.Summary)
				if cd := cooldown(req.Chat, c); cd > 0 {
					b.WriteString(" (co " + Seconds(cd) + ")")
				}
			}
			return Reply{Text: b.String()}, nil
		},
	}
}

// CooldownFunc gives a command's cooldown in a chat (configured, or switched
// off by an override).
type CooldownFunc func(chat Chat, c *Command) time.Duration
