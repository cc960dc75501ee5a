package app

import (
	"regexp"
	"strings"
	"testing"

	"signal-bot/pkg/commands"
)

// verb is one fmt verb of a text, filled by filled.
var verb = regexp.MustCompile(`%\[\d+\]([a-z])`)

// filled is text with each verb given a plain value: what the bot would
// send, as far as its start goes.
func filled(text string) string {
	return verb.ReplaceAllStringFunc(text, func(v string) string {
		if strings.HasSuffix(v, "d") {
			return "1"
		}
		return "x"
	})
}

// No text the bot sends starts with "!": an echo of its own message that the
// bot does not recognise as its send (the state moved aside, a second bot on
// the account) would be read as the owner's command. Every key of every
// language's table and every phrase of every command the bot has, in every
// language, is checked as a whole message would be (commands.Parse) and
// for a leading "!" at all.
func TestNoTextStartsWithABang(t *testing.T) {
	check := func(where string, text string) {
		t.Helper()
		s := filled(text)
		if _, _, isCommand := commands.Parse(s); isCommand || strings.HasPrefix(strings.TrimSpace(s), "!") {
			t.Errorf("%s = %q: starts with \"!\"; a message of the bot must not", where, text)
		}
	}
	for _, lang := range commands.Languages() {
		texts := commands.TextsFor(lang)
		for _, k := range commands.Keys() {
			check(lang+" "+string(k), texts.Text(k))
		}
	}
	reg, err := registryOf(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range reg.All() {
		for lang, phrases := range c.Phrases {
			for k, text := range phrases {
				check("!"+c.Name+" "+lang+" "+string(k), text)
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no command phrases checked")
	}
}
