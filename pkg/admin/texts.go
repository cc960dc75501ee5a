package admin

import (
	"fmt"
	"maps"
	"regexp"
	"slices"

	"signal-bot/pkg/commands"
)

// key names one of the console's texts.
type key string

// phrases are texts by language (commands.Languages) and key. Every
// language has the keys Polish has, with the same fmt verbs in the same
// order.
type phrases map[string]map[key]string

// usageKey is the key of verb name's line in !bot's usage.
func usageKey(name string) key { return key("bot.usage." + name) }

// The texts more than one verb says; a verb's own are in its file.
const (
	keyUsage       key = "bot.usage"        // the header of the usage
	keyNoCommand   key = "bot.no_command"   // %[1]s: the name given
	keyBadDuration key = "bot.bad_duration" // %[1]s: the text given, %[2]s: the longest allowed
	keyNone        key = "status.none"      // an empty list
	keyMore        key = "bot.more"         // %[1]d: how many more a cut list has
	keyTooShort    key = "bot.too_short"    // %[1]s: the duration given
)

func sharedTexts() phrases {
	return phrases{
		"pl": {
			keyUsage:       "Komendy administratora (w czacie z botem):",
			keyNoCommand:   "Nie ma komendy !%[1]s.",
			keyBadDuration: "Nie rozumiem czasu %[1]q: napisz np. 30s, 5m albo 2h (najwyżej %[2]s).",
			keyNone:        "brak",
			keyMore:        "… i jeszcze %[1]d",
			keyTooShort:    "Czas %[1]q to mniej niż sekunda: najmniej 1s (albo 0s).",
		},
		"en": {
			keyUsage:       "Admin commands (in a chat with the bot):",
			keyNoCommand:   "There is no command !%[1]s.",
			keyBadDuration: "I do not understand the duration %[1]q: write e.g. 30s, 5m or 2h (at most %[2]s).",
			keyNone:        "none",
			keyMore:        "… and %[1]d more",
			keyTooShort:    "The duration %[1]q is less than a second: at least 1s (or 0s).",
		},
	}
}

// texts are the console's texts in one language.
type texts map[key]string

func (t texts) text(k key) string { return t[k] }

func (t texts) format(k key, args ...any) string { return fmt.Sprintf(t[k], args...) }

// allTexts joins the shared texts and each verb's, by language, and says
// what is missing: a verb's usage line, a key in a language, a verb of fmt,
// or a key that two of them define.
func allTexts(vs []verb) (phrases, error) {
	all := phrases{}
	owner := map[key]string{}
	add := func(who string, p phrases) error {
		if err := p.check(who); err != nil {
			return err
		}
		for k := range p["pl"] {
			if prev, dup := owner[k]; dup {
				return fmt.Errorf("!bot: text %s defined by both %s and %s", k, prev, who)
			}
			owner[k] = who
		}
		for _, lang := range commands.Languages() {
			if all[lang] == nil {
				all[lang] = map[key]string{}
			}
			maps.Copy(all[lang], p[lang])
		}
		return nil
	}
	if err := add("the shared texts", sharedTexts()); err != nil {
		return nil, err
	}
	for _, v := range vs {
		if v.texts["pl"][usageKey(v.name)] == "" {
			return nil, fmt.Errorf("!bot %s: no Polish text for %s", v.name, usageKey(v.name))
		}
		if err := add("!bot "+v.name, v.texts); err != nil {
			return nil, err
		}
	}
	return all, nil
}

// textsFor is the console's texts in lang ("en", else Polish), checked.
func textsFor(lang string, vs []verb) (texts, error) {
	all, err := allTexts(vs)
	if err != nil {
		return nil, err
	}
	if lang != "en" {
		lang = "pl"
	}
	return all[lang], nil
}

// check says what p lacks: a language, a key or a fmt verb of Polish's.
func (p phrases) check(who string) error {
	pl := p["pl"]
	fmtVerb := regexp.MustCompile(`%\[\d+\][a-z]`)
	for _, lang := range commands.Languages() {
		t := p[lang]
		if len(t) != len(pl) {
			return fmt.Errorf("%s: %d texts in %q, %d in Polish", who, len(t), lang, len(pl))
		}
		for _, k := range slices.Sorted(maps.Keys(pl)) {
			got, want := fmtVerb.FindAllString(t[k], -1), fmtVerb.FindAllString(pl[k], -1)
			if t[k] == "" || !slices.Equal(got, want) {
				return fmt.Errorf("%s: %q text for %s is %q; want one with Polish's verbs %v", who, lang, k, t[k], want)
			}
		}
	}
	return nil
}
