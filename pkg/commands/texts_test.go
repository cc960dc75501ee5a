package commands

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// verbs are a text's fmt verbs, in order: every language must take the same
// arguments for a key.
var verbRE = regexp.MustCompile(`%\[\d+\][a-z]`)

// Every language has every key, and no other, with the same verbs as Polish.
func TestTextsComplete(t *testing.T) {
	pl := polish()
	for _, lang := range Languages() {
		tbl := table(lang)
		for _, k := range Keys() {
			text, ok := tbl[k]
			if !ok || text == "" {
				t.Errorf("%s: no text for %s", lang, k)
				continue
			}
			if got, want := verbRE.FindAllString(text, -1), verbRE.FindAllString(pl[k], -1); !slices.Equal(got, want) {
				t.Errorf("%s %s: verbs %v; want Polish's %v", lang, k, got, want)
			}
		}
		if len(tbl) != len(Keys()) {
			t.Errorf("%s: %d texts for %d keys; a text without a key", lang, len(tbl), len(Keys()))
		}
	}
	if TextsFor("xx").Internal() != polish()[KeyInternal] || (Texts{}).Internal() != polish()[KeyInternal] {
		t.Error("the zero Texts or an unknown language does not speak Polish")
	}
	if TextsFor("en").Internal() == polish()[KeyInternal] {
		t.Error("REPLY_LANG=en speaks Polish")
	}
}

// Every reply of every language stays under Signal's 2000-byte body with the
// longest arguments the bot can give: a 32-rune name of 4-byte runes (Parse's
// cut), a 64-byte sender name (!ja's cut), hours of cooldown, every command.
func TestEveryReplyUnder2000Bytes(t *testing.T) {
	name := strings.Repeat("𝕏", MaxNameRunes)
	long := 99*time.Hour + 59*time.Minute + 59*time.Second
	for _, lang := range Languages() {
		tx := TextsFor(lang)
		replies := map[string]string{
			"upstream": tx.UpstreamFailed(), "internal": tx.Internal(), "unknown": tx.Unknown(name),
			"not here": tx.NotHere(name), "cooldown": tx.Cooldown(name, long),
		}
		reg, now := fullRegistry(t, tx, long)
		for _, cmd := range []string{"pomoc", "ja"} {
			c, _ := reg.Get(cmd)
			r, err := c.Run(context.Background(), Request{Command: c, Sender: "s", SenderName: strings.Repeat("ż", 200),
				Now: now, Registry: reg, Texts: tx})
			if err != nil {
				t.Fatalf("%s !%s: %v", lang, cmd, err)
			}
			replies[cmd] = r.Text
		}
		for what, r := range replies {
			if len(r) >= 2000 || strings.Contains(r, "%!") || r == "" {
				t.Errorf("%s %s: %d bytes %q; want a well-formed text under 2000", lang, what, len(r), r)
			}
		}
	}
}

// fullRegistry is the four commands, each with a long cooldown still running for
// sender "s", who has used each very often.
func fullRegistry(t *testing.T, tx Texts, cd time.Duration) (*Registry, time.Time) {
	t.Helper()
	now := time.Unix(1765000000, 0)
	var tallies []Tally
	cmds := []*Command{Pomoc(configuredCooldown{}), Ja(nil, configuredCooldown{}, true), Cat(nil, time.Second), Kot(nil, time.Second)}
	for _, c := range cmds {
		c.Summary, c.Cooldown = c.SummaryIn(tx.Lang()), cd
		tallies = append(tallies, Tally{Command: c.Name, Count: 1 << 62, Last: now})
	}
	cmds[1] = Ja(tallyMap{"s": tallies}, configuredCooldown{}, true)
	cmds[1].Summary, cmds[1].Cooldown = cmds[1].SummaryIn(tx.Lang()), cd
	reg, err := NewRegistry(cmds...)
	if err != nil {
		t.Fatal(err)
	}
	return reg, now
}

// !pomoc and !ja speak the request's language, and name the commands by
// their names in it: !help, !me, !cat, !kot in English.
func TestPomocAndJaInEnglish(t *testing.T) {
	en := TextsFor("en")
	reg, now := fullRegistry(t, en, 30*time.Second)
	p, _ := reg.Resolve("help")
	got, _ := p.Run(context.Background(), Request{Command: p, Registry: reg, Texts: en, Now: now})
	want := "Commands in this chat:\n!cat — a random cat from The Cat API (every 30 s)\n!me — your stats (every 30 s)\n" +
		"!kot — a random cat photo from Wikimedia Commons (every 30 s)\n!help — this list (every 30 s)"
	if got.Text != want {
		t.Errorf("!help in English = %q; want %q", got.Text, want)
	}
	ja, _ := reg.Resolve("me")
	got, _ = ja.Run(context.Background(), Request{Command: ja, Sender: "s", Registry: reg, Texts: en, Now: now.Add(10 * time.Second)})
	if !strings.HasPrefix(got.Text, "Stats: ") || !strings.Contains(got.Text, "!kot — 4611686018427387904 times, again in 20 s") ||
		!strings.Contains(got.Text, "\n!help — ") || !strings.Contains(got.Text, "\n!me — ") {
		t.Errorf("!me in English = %q", got.Text)
	}
	if got := times(ja.Phrases, en, 1) + ", " + times(ja.Phrases, en, 2); got != "1 time, 2 times" {
		t.Errorf("Times(1), Times(2) = %q", got)
	}
	none, _ := ja.Run(context.Background(), Request{Command: ja, Sender: "nobody", Registry: reg, Texts: en, Now: now})
	if none.Text != "Stats: you\nNothing yet." {
		t.Errorf("!me in English for a new sender = %q", none.Text)
	}
}

// A command's name in a language must be one of its names: NewRegistry
// refuses one that is not, so !help never lists a name that does not answer.
func TestNameInMustResolve(t *testing.T) {
	ph := Phrases{
		"pl": {SummaryKey("x"): "iks", NameKey("x"): "x"},
		"en": {SummaryKey("x"): "ex", NameKey("x"): "ex"},
	}
	_, err := NewRegistry(&Command{Name: "x", Phrases: ph})
	if err == nil || !strings.Contains(err.Error(), "!ex") {
		t.Errorf("NewRegistry with an English name that is no alias: %v; want an error naming !ex", err)
	}
	c := &Command{Name: "x", Aliases: []string{"ex"}, Phrases: ph}
	if _, err := NewRegistry(c); err != nil {
		t.Errorf("NewRegistry with the English name as an alias: %v", err)
	}
	if c.NameIn("en") != "ex" || c.NameIn("pl") != "x" {
		t.Errorf("NameIn = %q, %q; want ex, x", c.NameIn("en"), c.NameIn("pl"))
	}
}
