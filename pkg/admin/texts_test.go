package admin

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/owncmds"
)

// Every language has every key of the console, the shared texts' and each
// verb's, and no other, with Polish's fmt verbs; each verb has its usage
// line; and the texts as New checks them are the ones the console says.
func TestTextsComplete(t *testing.T) {
	all, err := allTexts(verbs())
	if err != nil {
		t.Fatal(err)
	}
	pl := all["pl"]
	for _, v := range verbs() {
		if pl[usageKey(v.name)] == "" {
			t.Errorf("!bot %s: no usage line", v.name)
		}
	}
	for _, lang := range commands.Languages() {
		tx, err := textsFor(lang, verbs())
		if err != nil {
			t.Fatal(err)
		}
		if len(tx) != len(pl) {
			t.Errorf("%s: %d texts; Polish has %d", lang, len(tx), len(pl))
		}
		for k := range pl {
			if tx[k] == "" {
				t.Errorf("%s: no text for %s", lang, k)
			}
		}
	}
	if en, _ := textsFor("en", verbs()); en.text(keyReset) == pl[keyReset] {
		t.Error("REPLY_LANG=en speaks Polish")
	}
	if xx, _ := textsFor("xx", verbs()); xx.text(keyReset) != pl[keyReset] {
		t.Error("an unknown language does not speak Polish")
	}
}

// New refuses a verb whose texts miss a language, a key or a fmt verb, lack
// its usage line, or define a key another defines.
func TestNewRefusesIncompleteTexts(t *testing.T) {
	run := func(*Console, context.Context, request) string { return "" }
	usage := usageKey("x")
	for name, p := range map[string]phrases{
		"no English":      {"pl": {usage: "!bot x"}},
		"a key short":     {"pl": {usage: "!bot x", "x.done": "zrobione"}, "en": {usage: "!bot x"}},
		"another verb":    {"pl": {usage: "!bot x", "x.done": "%[1]s zrobione"}, "en": {usage: "!bot x", "x.done": "%[1]d done"}},
		"an empty text":   {"pl": {usage: "!bot x"}, "en": {usage: ""}},
		"no usage line":   {"pl": {"x.done": "zrobione"}, "en": {"x.done": "done"}},
		"a shared key":    {"pl": {usage: "!bot x", keyNone: "nic"}, "en": {usage: "!bot x", keyNone: "nothing"}},
		"another's usage": {"pl": {usage: "!bot x", usageKey("reset"): "r"}, "en": {usage: "!bot x", usageKey("reset"): "r"}},
	} {
		vs := append(verbs(), verb{name: "x", run: run, texts: p})
		if _, err := allTexts(vs); err == nil {
			t.Errorf("%s: allTexts took %v", name, p)
		} else if !strings.Contains(err.Error(), "x") {
			t.Errorf("%s: the error %q does not name the verb", name, err)
		}
	}
	ok := phrases{"pl": {usage: "!bot x", "x.done": "%[1]s zrobione"}, "en": {usage: "!bot x", "x.done": "%[1]s done"}}
	if _, err := allTexts(append(verbs(), verb{name: "x", run: run, texts: ok})); err != nil {
		t.Errorf("a complete verb refused: %v", err)
	}
}

// No text of the console starts with "!" (issue 33.3): an echo of the
// bot's own message that it does not recognise as its send would be read
// as a command, the owner's !bot too. Every text of every verb, in every
// language, with its verbs filled, is checked as a whole message would be
// (commands.Parse); and so is every answer of every verb, a text
// command's shown and listed included.
func TestNoAdminTextStartsWithABang(t *testing.T) {
	check := func(where, text string) {
		t.Helper()
		if _, _, isCommand := commands.Parse(text); isCommand || strings.HasPrefix(strings.TrimSpace(text), "!") {
			t.Errorf("%s = %q: starts with \"!\"; a message of the bot must not", where, text)
		}
	}
	fill := regexp.MustCompile(`%\[\d+\]([a-z])`)
	all, err := allTexts(verbs())
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range commands.Languages() {
		for k, text := range all[lang] {
			check(lang+" "+string(k), fill.ReplaceAllStringFunc(text, func(v string) string {
				if strings.HasSuffix(v, "d") {
					return "1"
				}
				return "x"
			}))
		}
	}
	for _, lang := range commands.Languages() {
		d := testDeps(t)
		d.Lang = lang
		d.Planner = &memPlanner{plan: "rodzina=kot@08:00", at: time.Now()}
		texts, err := owncmds.LoadChatTexts(nil, d.Registry, lang, nil)
		if err != nil {
			t.Fatal(err)
		}
		d.Texts = texts
		c := newConsole(t, d)
		for _, args := range []string{"", "status", "cooldown pomoc 1m", "cooldown kot 1m", "cooldown pomoc 1ms", "scope pomoc direct",
			"scope pomoc x", "off pomoc", "on pomoc", "pauza 1h", "pauza 0", "plan", "plan rodzina=cat@09:00", "plan x",
			"tekst zasady Bądźcie mili.", "tekst zasady", "tekst", "tekst zasady -", "tekst zasady -", "tekst !x y", "reset"} {
			check(lang+" !bot "+args, c.Answer(context.Background(), bot.AdminCall{Args: args, Admin: "ala", Now: time.Now()}))
		}
	}
}
