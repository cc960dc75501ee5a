package commands

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
)

// Phrases are a command's own texts, by language (REPLY_LANG) and key: at
// least its !pomoc line under SummaryKey, and whatever else it replies (Say). They
// live in the command's file, so a new command needs no edit of the shared
// tables. Every language of Languages() has the same keys as Polish, with the
// same fmt verbs in the same order; NewRegistry refuses a command whose
// Phrases do not.
type Phrases map[string]map[Key]string

// SummaryKey is the key of name's line in !pomoc.
func SummaryKey(name string) Key { return Key("summary." + name) }

// text is k in lang, or in Polish when lang has none.
func (p Phrases) text(lang string, k Key) string {
	if s, ok := p[lang][k]; ok {
		return s
	}
	return p["pl"][k]
}

// Say is the command's own text k in the language of t (the request's
// Texts), formatted with args when there are any.
func (p Phrases) Say(t Texts, k Key, args ...any) string {
	s := p.text(t.Lang(), k)
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// NameKey is the key of name's name in a language where it is not name
// itself (!pomoc is !help in English); the name must be one of the
// command's names or aliases (NewRegistry checks).
func NameKey(name string) Key { return Key("name." + name) }

// NameIn is how !pomoc and !ja name c in lang: its Phrases' name there,
// else its own.
func (c *Command) NameIn(lang string) string {
	if n := c.Phrases.text(lang, NameKey(c.Name)); n != "" {
		return n
	}
	return c.Name
}

// SummaryIn is c's line in !pomoc in lang: its Phrases' summary.
func (c *Command) SummaryIn(lang string) string { return c.Phrases.text(lang, SummaryKey(c.Name)) }

// check says what c's Phrases lack: a language, a key, a verb. A command
// without Phrases (a test's) has nothing to check.
func (p Phrases) check(name string) error {
	if p == nil {
		return nil
	}
	pl := p["pl"]
	if pl[SummaryKey(name)] == "" {
		return fmt.Errorf("command !%s: no Polish text for %s", name, SummaryKey(name))
	}
	verbs := regexp.MustCompile(`%\[\d+\][a-z]`)
	for _, lang := range Languages() {
		t := p[lang]
		if len(t) != len(pl) {
			return fmt.Errorf("command !%s: %d texts in %q, %d in Polish", name, len(t), lang, len(pl))
		}
		for _, k := range slices.Sorted(maps.Keys(pl)) {
			got, want := verbs.FindAllString(t[k], -1), verbs.FindAllString(pl[k], -1)
			if t[k] == "" || !slices.Equal(got, want) {
				return fmt.Errorf("command !%s: %q text for %s is %q; want one with Polish's verbs %v", name, lang, k, t[k], want)
			}
		}
	}
	return nil
}
