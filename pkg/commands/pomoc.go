package commands

import (
	"context"
	"strings"
	"time"
)

// !pomoc's own texts: the list's header, and each line's cooldown.
const (
	KeyHelpHeader Key = "help.header"
	KeyHelpEvery  Key = "help.every" // %[1]s: the cooldown (Seconds)
)

// Pomoc is the help command: generated from the request's registry, each
// command by its name in the reply's language (NameIn), listing only what
// answers in the asking chat now (settings: the scopes as changed,
// without the commands switched off), with the cooldowns in effect there.
func Pomoc(settings Settings) *Command {
	ph := Phrases{
		"pl": {SummaryKey("pomoc"): "ta lista", NameKey("pomoc"): "pomoc", KeyHelpHeader: "Komendy w tym czacie:", KeyHelpEvery: " (co %[1]s)"},
		"en": {SummaryKey("pomoc"): "this list", NameKey("pomoc"): "help", KeyHelpHeader: "Commands in this chat:", KeyHelpEvery: " (every %[1]s)"},
	}
	return &Command{
		Name: "pomoc", Aliases: []string{"help", "pomocy"}, Phrases: ph, Summary: ph["pl"][SummaryKey("pomoc")], Scope: Everywhere,
		Cooldown: 10 * time.Second,
		Run: func(_ context.Context, req Request) (Reply, error) {
			var b strings.Builder
			b.WriteString(ph.Say(req.Texts, KeyHelpHeader))
			for _, c := range req.Registry.All() {
				if !settings.Allows(req.Chat, c) {
					continue
				}
				b.WriteString("\n!" + c.NameIn(req.Texts.Lang()) + " — " + c.Summary)
				if cd := settings.Cooldown(req.Chat, c, req.Now); cd > 0 {
					b.WriteString(ph.Say(req.Texts, KeyHelpEvery, Seconds(cd)))
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

// Settings are the commands' cooldowns and scopes in force: each command's
// default (its Cooldown and Scope, as the environment set them), a change an
// admin made in chat over it, a test override over both. The bot's settings
// are one.
type Settings interface {
	Cooldowns
	// Allows tells whether c answers in chat now: its scope in force allows
	// chat and c is not switched off.
	Allows(chat Chat, c *Command) bool
}
