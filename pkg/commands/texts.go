package commands

import (
	"fmt"
	"math"
	"time"
)

// Key names one user-facing text. Every language's table has every key (a test
// checks), each with the same fmt verbs in the same order.
type Key string

// The texts the bot says for every command: refusals, hints and apologies.
// A command's own texts (its !pomoc summary, what it replies) are in its
// file, as its Phrases.
const (
	KeyUpstreamFailed Key = "upstream_failed" // a picture could not be fetched
	KeyInternal       Key = "internal"        // anything else went wrong
	KeyUnknown        Key = "unknown"         // %[1]s: the unknown name
	KeyNotHere        Key = "not_here"        // %[1]s: the command
	KeyCooldown       Key = "cooldown"        // %[1]s: the wait (Seconds), %[2]s: the command
)

// Keys lists every key, for the completeness test and REPLY_LANG's checks.
func Keys() []Key {
	return []Key{KeyUpstreamFailed, KeyInternal, KeyUnknown, KeyNotHere, KeyCooldown}
}

// Languages lists REPLY_LANG's values; the first is the default.
func Languages() []string { return []string{"pl", "en"} }

// table is one language's texts, made afresh for each Texts so none is shared.
func table(lang string) map[Key]string {
	if lang == "en" {
		return english()
	}
	return polish()
}

// Texts is the bot's texts in one language (REPLY_LANG). The zero Texts speaks
// Polish, the default. It is read-only, so safe for concurrent use.
type Texts struct {
	lang string // a language of Languages(); "" is Polish
	m    map[Key]string
}

// TextsFor returns the texts of lang ("pl" or "en", which config checks);
// any other value is Polish.
func TextsFor(lang string) Texts {
	if lang != "en" {
		lang = "pl"
	}
	return Texts{lang: lang, m: table(lang)}
}

// Lang is the texts' language, "pl" for the zero Texts.
func (t Texts) Lang() string {
	if t.lang == "" {
		return "pl"
	}
	return t.lang
}

// Text is key's text, unformatted.
func (t Texts) Text(k Key) string {
	if t.m == nil {
		return polish()[k]
	}
	return t.m[k]
}

func (t Texts) format(k Key, args ...any) string { return fmt.Sprintf(t.Text(k), args...) }

// UpstreamFailed is the apology for a picture that could not be fetched.
func (t Texts) UpstreamFailed() string { return t.Text(KeyUpstreamFailed) }

// Internal is the apology for anything else that failed.
func (t Texts) Internal() string { return t.Text(KeyInternal) }

// Unknown is the hint for an unknown command.
func (t Texts) Unknown(name string) string { return t.format(KeyUnknown, name) }

// NotHere says a command does not answer in this chat.
func (t Texts) NotHere(name string) string { return t.format(KeyNotHere, name) }

// Cooldown says how long to wait.
func (t Texts) Cooldown(name string, left time.Duration) string {
	return t.format(KeyCooldown, Seconds(left), name)
}

// Seconds renders a duration for people, rounded up: "1 s", "2 min 5 s" (the
// same in both languages).
func Seconds(d time.Duration) string {
	s := int(math.Ceil(d.Seconds()))
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	default:
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
}
