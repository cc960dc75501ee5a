package admin

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/owncmds"
)

// What !bot tekst answers in each language, and what it makes: a text
// command that answers, replaced, shown, listed, removed; each refusal with
// its reason.
func TestTextVerb(t *testing.T) {
	for _, tt := range []struct {
		lang string
		want []string // the answer to each call of calls, a substring
	}{
		{"pl", []string{"Komendy tekstowe (0 z 50): brak", "Komenda !zasady zapisana.", "Komenda !zasady zmieniona.",
			"Komenda !zasady: Bądźcie mili.\nI cierpliwi.", "Komendy tekstowe (1 z 50):\n• !zasady — Bądźcie mili.…",
			`"za-sady" nie może być nazwą komendy`, "Nazwa !pomoc jest już zajęta", "Nazwa !help jest już zajęta",
			"Nazwa !bot jest już zajęta", "Tekst ma 2000 bajtów; najwyżej 1999", "Komenda !zasady usunięta.",
			"Nie ma komendy tekstowej !zasady.", "!bot tekst <nazwa> <tekst…>"}},
		{"en", []string{"Text commands (0 of 50): none", "Command !zasady saved.", "Command !zasady changed.",
			"Command !zasady: Bądźcie mili.\nI cierpliwi.", "Text commands (1 of 50):\n• !zasady — Bądźcie mili.…",
			`"za-sady" cannot be a command's name`, "The name !pomoc is taken", "The name !help is taken",
			"The name !bot is taken", "The text is 2000 bytes; at most 1999", "Command !zasady removed.",
			"There is no text command !zasady.", "!bot text <name> <text…>"}},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			d := testDeps(t)
			d.Lang = tt.lang
			texts, err := owncmds.LoadChatTexts(nil, d.Registry, tt.lang, nil)
			if err != nil {
				t.Fatal(err)
			}
			d.Texts = texts
			c := newConsole(t, d)
			calls := []string{"tekst", "tekst zasady Bądźcie dla siebie mili.", "text Zasady Bądźcie mili.\nI cierpliwi.",
				"tekst zasady", "tekst", "tekst za-sady x", "tekst pomoc x", "tekst !help x", "tekst bot x",
				"tekst dlugi " + strings.Repeat("a", 2000), "tekst zasady -", "tekst zasady -", "tekst"}
			for i, args := range calls {
				got := c.Answer(context.Background(), bot.AdminCall{Args: args, Admin: "ala", Now: time.Now()})
				if i == len(calls)-1 && !strings.Contains(c.Answer(context.Background(), bot.AdminCall{}), tt.want[i]) {
					t.Errorf("the usage lacks %q", tt.want[i])
					continue
				}
				if i < len(calls)-1 && !strings.Contains(got, tt.want[i]) {
					t.Errorf("!bot %s = %q; want it to say %q", args, got, tt.want[i])
				}
				if i == 2 {
					cmd, ok := d.Registry.Resolve("zasady")
					if !ok {
						t.Fatal("!zasady does not resolve after !bot tekst")
					}
					if r, _ := cmd.Run(context.Background(), commands.Request{}); r.Text != "Bądźcie mili.\nI cierpliwi." {
						t.Errorf("!zasady answers %q; want the text with its line kept", r.Text)
					}
				}
			}
			if _, ok := d.Registry.Resolve("zasady"); ok {
				t.Error("!zasady answers after its removal")
			}
		})
	}
}

// The 51st text command is refused with the reason; the list of 50 fits a
// reply.
func TestTextVerbLimit(t *testing.T) {
	d := testDeps(t)
	texts, err := owncmds.LoadChatTexts(nil, d.Registry, "pl", nil)
	if err != nil {
		t.Fatal(err)
	}
	d.Texts = texts
	c := newConsole(t, d)
	ctx := context.Background()
	for i := range owncmds.MaxChatTexts {
		args := fmt.Sprintf("tekst %s%02d %s", strings.Repeat("k", commands.MaxNameRunes-2), i, strings.Repeat("ż", 100))
		if got := c.Answer(ctx, bot.AdminCall{Args: args, Now: time.Now()}); !strings.Contains(got, "zapisana") {
			t.Fatalf("the %dth: %q", i+1, got)
		}
	}
	if got := c.Answer(ctx, bot.AdminCall{Args: "tekst jeszcze x", Now: time.Now()}); !strings.Contains(got, "najwyżej 50") {
		t.Errorf("the 51st: %q; want the limit", got)
	}
	if got := c.Answer(ctx, bot.AdminCall{Args: "tekst", Now: time.Now()}); len(got) >= commands.MaxReplyBytes || !strings.HasSuffix(got, "…") {
		t.Errorf("the list of 50: %d bytes, ending %q; want it cut under %d", len(got), got[max(len(got)-10, 0):], commands.MaxReplyBytes)
	}
}

// Without text commands (a bot built without them) the verb says so.
func TestTextVerbOff(t *testing.T) {
	c := newConsole(t, testDeps(t))
	if got := c.Answer(context.Background(), bot.AdminCall{Args: "tekst x y"}); got != "Komendy tekstowe nie działają w tym bocie." {
		t.Errorf("!bot tekst without them = %q", got)
	}
}
