package admin

import (
	"context"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/owncmds"
)

// Every reason an admin reads is in the reply's language (issue 33.12): a
// bad scope, a bad plan's slots, a bad or too short duration (issue 33.10:
// refused below a second, rounded to the second and confirmed as kept), a
// text command's refusal; and !bot pauza says the posts are held too (issue
// 33.7). Each call is made in both languages, on a console of its own.
func TestAdminReasonsInTheReplysLanguage(t *testing.T) {
	long := strings.Repeat("a", maxPlanBytes+1)
	for _, tt := range []struct {
		args, pl, en string
		cooldown     time.Duration // pomoc's cooldown set in chat after the call; 0: none
	}{
		{"scope pomoc x", `Zły zakres: "x" to nie *, direct, groups ani alias grupy.`, `Bad scope: "x" is not *, direct, groups or a group alias.`, 0},
		{"scope pomoc |", "Zły zakres: nie wskazuje żadnego czatu.", "Bad scope: it names no chat.", 0},
		{"scope pomoc " + strings.Repeat("direct|", 40), "Zły zakres: ma 280 bajtów, najwyżej 256.", "Bad scope: it is 280 bytes, at most 256.", 0},
		{"plan sąsiedzi=kot@08:00", `Zły plan: sąsiedzi=kot@08:00: nie ma grupy "sąsiedzi" w SIGNAL_GROUPS (są: rodzina, testbot).`,
			`Bad plan: sąsiedzi=kot@08:00: no group alias "sąsiedzi" in SIGNAL_GROUPS (the aliases: rodzina, testbot).`, 0},
		{"plan rodzina=kot@8:00", `Zły plan: "rodzina=kot@8:00": godzina ma być GG:MM, od 00:00 do 23:59.`,
			`Bad plan: "rodzina=kot@8:00": the time must be HH:MM, 00:00 to 23:59.`, 0},
		{"plan " + long, "Plan ma 131073 bajtów: najwyżej 131072, tyle co SCHEDULE.", "The plan is 131073 bytes: at most 131072, as SCHEDULE.", 0},
		{"cooldown pomoc 0.0000001s", `Czas "0.0000001s" to mniej niż sekunda: najmniej 1s (albo 0s).`,
			`The duration "0.0000001s" is less than a second: at least 1s (or 0s).`, 0},
		{"cooldown pomoc 1.4s", "Komenda !pomoc: co 1 s (środowisko: 10 s).", "Command !pomoc: every 1 s (environment: 10 s).", time.Second},
		{"cooldown pomoc wieczność", `Nie rozumiem czasu "wieczność": napisz np. 30s, 5m albo 2h (najwyżej 24h0m0s).`,
			`I do not understand the duration "wieczność": write e.g. 30s, 5m or 2h (at most 24h0m0s).`, 0},
		{"pauza 100ns", `Czas "100ns" to mniej niż sekunda`, `The duration "100ns" is less than a second`, 0},
		{"pauza 1h", "a posty z planu przepadają.", "and scheduled posts are skipped.", 0},
		{"", "bot milczy przez ten czas, posty z planu też przepadają", "the bot stays silent that long, scheduled posts are skipped too", 0},
		{"tekst echo !pomoc", "Tekst nie może zaczynać się od „!”", `The text may not start with "!"`, 0},
		{"tekst echo " + strings.Repeat("ż", 1000), "Tekst ma 2000 bajtów; najwyżej 1999", "The text is 2000 bytes; at most 1999", 0},
	} {
		for lang, want := range map[string]string{"pl": tt.pl, "en": tt.en} {
			d := testDeps(t)
			d.Lang = lang
			d.Planner = &memPlanner{}
			texts, err := owncmds.LoadChatTexts(nil, d.Registry, lang, nil)
			if err != nil {
				t.Fatal(err)
			}
			d.Texts = texts
			c := newConsole(t, d)
			got := c.Answer(context.Background(), bot.AdminCall{Args: tt.args, Admin: "ala", Now: time.Now()})
			if !strings.Contains(got, want) {
				t.Errorf("%s: !bot %.40s = %q; want it to contain %q", lang, tt.args, got, want)
			}
			if cd, ok := d.Changes.Cooldown("pomoc"); cd != tt.cooldown || ok != (tt.cooldown > 0) {
				t.Errorf("%s: after !bot %.40s the cooldown kept is %v (set %v); want %v", lang, tt.args, cd, ok, tt.cooldown)
			}
		}
	}
}
