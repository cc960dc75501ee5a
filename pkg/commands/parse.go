// Package commands holds the bot's commands: the registry that parses,
// resolves and scopes them, and the four handlers.
package commands

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on what Parse keeps of hostile input.
const (
	MaxNameRunes = 32
	MaxArgsBytes = 256
	// MaxAdminArgsBytes bounds what ParseAdmin keeps of the admins' !bot:
	// more than any verb takes (a plan as long as SCHEDULE may be, a text
	// command's text), so that a verb refuses an argument over its own
	// limit, saying so, instead of taking a cut one.
	MaxAdminArgsBytes = 256 << 10
)

// Parse splits "!Kot  rudy" into ("kot", "rudy", true). Text that is not a
// command ("hello", "!", "!!!", "! kot") gives ok == false: the bot stays
// silent. Names are lower-cased and cut to MaxNameRunes; arguments are
// trimmed and cut to MaxArgsBytes on a rune boundary.
func Parse(text string) (name, args string, ok bool) { return parse(text, MaxArgsBytes) }

// ParseAdmin is Parse for an admin's !bot, whose arguments are cut at
// MaxAdminArgsBytes only.
func ParseAdmin(text string) (name, args string, ok bool) { return parse(text, MaxAdminArgsBytes) }

func parse(text string, maxArgs int) (name, args string, ok bool) {
	text = strings.TrimSpace(text)
	rest, found := strings.CutPrefix(text, "!")
	if !found {
		return "", "", false
	}
	end := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if end < 0 {
		end = len(rest)
	}
	if end == 0 {
		return "", "", false
	}
	name = strings.ToLower(rest[:end])
	if utf8.RuneCountInString(name) > MaxNameRunes {
		name = string([]rune(name)[:MaxNameRunes])
	}
	return name, truncate(strings.TrimSpace(rest[end:]), maxArgs), true
}

// truncate cuts s to at most n bytes without splitting a rune.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Truncate cuts s to at most n bytes without splitting a rune, for a text
// an admin typed that a reply repeats.
func Truncate(s string, n int) string { return truncate(s, n) }
