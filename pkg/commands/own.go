package commands

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxReplyBytes is Signal's limit on a message body as the bot keeps it:
// every reply stays under it (TestEveryReplyUnder2000Bytes), and a text
// command's text or a hook's answer may not be longer.
const MaxReplyBytes = 2000

// ValidName tells whether name can be typed as a command: what Parse makes
// of "!name" is name itself, so lower-case letters and digits only, at
// most MaxNameRunes of them.
func ValidName(name string) bool {
	if name == "" || utf8.RuneCountInString(name) > MaxNameRunes || strings.ToLower(name) != name {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// Own describes a command that is not built in: one of COMMANDS_FILE or
// one an admin made in chat.
type Own struct {
	Name    string
	Aliases []string
	// Summary is its !pomoc line by language; a language it lacks gets
	// Polish's, or else any other's.
	Summary  map[string]string
	Cooldown time.Duration
	Scope    Scope
	Typing   bool
	Origin   string // OriginFile or OriginChat
}

// Command makes o's command, which runs run, with its summary in lang (the
// reply's language).
func (o Own) Command(lang string, run RunFunc) *Command {
	ph := Phrases{}
	for _, l := range Languages() {
		ph[l] = map[Key]string{SummaryKey(o.Name): o.summary(l)}
	}
	c := &Command{
		Name: o.Name, Aliases: o.Aliases, Phrases: ph, Cooldown: o.Cooldown, Scope: o.Scope,
		Typing: o.Typing, Origin: o.Origin, Run: run,
	}
	c.Summary = c.SummaryIn(lang)
	return c
}

// summary is o's summary in lang, or the fallback the type describes; "…"
// when it has none at all.
func (o Own) summary(lang string) string {
	if s := o.Summary[lang]; s != "" {
		return s
	}
	if s := o.Summary["pl"]; s != "" {
		return s
	}
	for _, l := range Languages() {
		if s := o.Summary[l]; s != "" {
			return s
		}
	}
	return "…"
}

// Answer is the RunFunc of a text command: it answers text.
func Answer(text string) RunFunc {
	return func(context.Context, Request) (Reply, error) { return Reply{Text: text}, nil }
}

// BuiltinNames are the names and aliases of the built-in commands and of
// the admins' !bot: what no command of COMMANDS_FILE and none made in chat
// may take. The list lets the configuration refuse a clash before the
// registry exists; TestBuiltinNames (pkg/app) checks it against the
// registry the bot builds.
func BuiltinNames() []string {
	return []string{"bot", "pomoc", "help", "pomocy", "ja", "me", "staty", "cat", "kot", "kitku"}
}
