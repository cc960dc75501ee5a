package admin

import "context"

// verb is one row of !bot's table: !bot <name> <args…>.
type verb struct {
	name  string // as typed after !bot, lower-case
	nargs int    // the arguments it needs at least; fewer get the usage
	// run answers one call; it changes what it changes before it answers.
	run func(c *Console, ctx context.Context, r request) string
	// texts are its own texts in every language: its line in the usage
	// under usageKey(name), and whatever it answers (and any line of !bot
	// status it adds). New checks them.
	texts phrases
}

// verbs is !bot's table, in the usage's order. A verb is one file of its
// own (its run and its texts) and one row here.
func verbs() []verb {
	return []verb{
		{"status", 0, (*Console).status, statusTexts()},
		{"cooldown", 2, (*Console).cooldown, cooldownTexts()},
		{"scope", 2, (*Console).scope, scopeTexts()},
		{"off", 1, (*Console).off, offTexts()},
		{"on", 1, (*Console).on, onTexts()},
		{"pauza", 1, (*Console).pause, pauseTexts()},
		{"plan", 0, (*Console).plan, planTexts()},
		{"reset", 0, (*Console).reset, resetTexts()},
		{"tekst", 0, (*Console).text, textTexts()},
		{"captcha", 1, (*Console).captcha, captchaTexts()},
	}
}

// verbAliases are other names of verbs, by alias: the English of a Polish
// verb.
func verbAliases() map[string]string { return map[string]string{"text": "tekst"} }

// Verbs names !bot's verbs, in the table's order, for the README's test.
func Verbs() []string {
	var out []string
	for _, v := range verbs() {
		out = append(out, v.name)
	}
	return out
}
