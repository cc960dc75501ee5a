package admin

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/owncmds"
	"signal-bot/pkg/store"
)

// fileZasady is a command of COMMANDS_FILE: !zasady, alias rules, 10 s,
// everywhere.
func fileZasady() *commands.Command {
	return commands.Own{Name: "zasady", Aliases: []string{"rules"}, Summary: map[string]string{"pl": "zasady"},
		Cooldown: owncmds.DefaultCooldown, Scope: commands.Everywhere, Origin: commands.OriginFile}.Command("pl", commands.Answer("z pliku"))
}

// textDeps is testDeps with text commands made in chat, kept in memory,
// over the registry of extra and !pomoc.
func textDeps(t *testing.T, extra ...*commands.Command) Deps {
	t.Helper()
	d := testDeps(t)
	reg, err := commands.NewRegistry(append(d.Registry.All(), extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	d.Registry = reg
	if d.Texts, err = owncmds.LoadChatTexts(nil, reg, "pl", nil); err != nil {
		t.Fatal(err)
	}
	return d
}

// say is an admin's !bot args, which must answer want.
func say(t *testing.T, c *Console, args, want string) {
	t.Helper()
	if got := c.Answer(context.Background(), bot.AdminCall{Args: args, Admin: "ala", Now: time.Now()}); !strings.Contains(got, want) {
		t.Errorf("!bot %s = %q; want it to say %q", args, got, want)
	}
}

// !bot cooldown and !bot scope change a text command made in chat and a
// command of COMMANDS_FILE (named by its alias) as they change a built-in:
// the settings the bot dispatches by hold them.
func TestCooldownAndScopeOfOwnCommands(t *testing.T) {
	group, direct := commands.Chat{GroupID: rodzina, Alias: "rodzina"}, commands.Chat{}
	for _, tt := range []struct {
		name  string
		extra []*commands.Command
		make  string // the !bot call that makes !zasady, if any
		as    string // the name the verbs are given
	}{
		{"text command", nil, "tekst zasady Bądźcie mili.", "zasady"},
		{"file command", []*commands.Command{fileZasady()}, "", "!rules"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := textDeps(t, tt.extra...)
			c := newConsole(t, d)
			if tt.make != "" {
				say(t, c, tt.make, "zapisana")
			}
			cmd, ok := d.Registry.Resolve("zasady")
			if !ok {
				t.Fatal("!zasady does not resolve")
			}
			s := bot.NewSettings(nil, d.Changes)
			if got := s.Cooldown(group, cmd, time.Now()); got != 10*time.Second || !s.Allows(direct, cmd) {
				t.Fatalf("before: cooldown %v, direct allowed %v; want 10s, true", got, s.Allows(direct, cmd))
			}
			say(t, c, "cooldown "+tt.as+" 1m", "Komenda !zasady: co 1 min (środowisko: 10 s).")
			say(t, c, "scope "+tt.as+" groups", "Komenda !zasady działa teraz w: groups.")
			if got := s.Cooldown(group, cmd, time.Now()); got != time.Minute {
				t.Errorf("cooldown %v after !bot cooldown; want 1m", got)
			}
			if !s.Allows(group, cmd) || s.Allows(direct, cmd) {
				t.Errorf("after !bot scope groups: group %v, direct %v; want true, false", s.Allows(group, cmd), s.Allows(direct, cmd))
			}
			if got := strings.Join(describeChanges(d.Changes.Set(time.Now())), ", "); got != "cooldown zasady=1m0s, scope zasady=groups" {
				t.Errorf("changes %q; want them under the command's name", got)
			}
		})
	}
}

// Removing a text command drops what was set in chat for it, so a later
// command of its name starts from the defaults; another command's settings
// stay. A new text command does not take over what was set for an earlier
// command of its name either (one of COMMANDS_FILE since gone).
func TestTextRemovalDropsItsSettings(t *testing.T) {
	d := textDeps(t)
	c := newConsole(t, d)
	ctx := context.Background()
	say(t, c, "tekst zasady Bądźcie mili.", "zapisana")
	for _, args := range []string{"cooldown zasady 1h", "scope zasady direct", "off zasady", "cooldown pomoc 1m"} {
		say(t, c, args, "!")
	}
	say(t, c, "tekst zasady -", "usunięta")
	if got := strings.Join(describeChanges(d.Changes.Set(time.Now())), ", "); got != "cooldown pomoc=1m0s" {
		t.Errorf("after the removal: changes %q; want only !pomoc's", got)
	}
	if err := d.Changes.SetOff(ctx, "link", true); err != nil { // left by a command gone from the file
		t.Fatal(err)
	}
	say(t, c, "tekst zasady Nowe zasady.", "zapisana")
	say(t, c, "tekst link https://example.org", "zapisana")
	s := bot.NewSettings(nil, d.Changes)
	for _, name := range []string{"zasady", "link"} {
		cmd, _ := d.Registry.Resolve(name)
		if got := s.Cooldown(commands.Chat{GroupID: rodzina}, cmd, time.Now()); got != owncmds.DefaultCooldown || !s.Allows(commands.Chat{GroupID: rodzina}, cmd) {
			t.Errorf("the new !%s: cooldown %v, answers in a group %v; want the defaults", name, got, s.Allows(commands.Chat{GroupID: rodzina}, cmd))
		}
	}
	if got := strings.Join(describeChanges(d.Changes.Set(time.Now())), ", "); got != "cooldown pomoc=1m0s" {
		t.Errorf("after the new commands: changes %q; want only !pomoc's", got)
	}
}

// A text command hidden by a command of COMMANDS_FILE of its name is
// removed without touching what was set for the file's command.
func TestHiddenTextRemovalKeepsTheFilesSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	open := func(extra ...*commands.Command) (*store.Store, Deps) {
		st, err := store.Open(store.Config{Path: path, CommitInterval: time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		d := textDeps(t, extra...)
		if d.Texts, err = owncmds.LoadChatTexts(st, d.Registry, "pl", nil); err != nil {
			t.Fatal(err)
		}
		return st, d
	}
	st, d := open()
	say(t, newConsole(t, d), "tekst zasady z czatu", "zapisana")
	st.Close()
	st, d = open(fileZasady())
	defer st.Close()
	c := newConsole(t, d)
	say(t, c, "tekst", "(zasłonięta przez COMMANDS_FILE)")
	say(t, c, "cooldown zasady 1m", "co 1 min")
	say(t, c, "tekst zasady -", "usunięta")
	if got := strings.Join(describeChanges(d.Changes.Set(time.Now())), ", "); got != "cooldown zasady=1m0s" {
		t.Errorf("changes %q; want the file's !zasady's kept", got)
	}
}

// !bot reset drops every setting made in chat, a text command's too, and
// leaves the text commands answering; its usage and its answer say so.
func TestResetKeepsTextCommands(t *testing.T) {
	for lang, says := range map[string]string{"pl": "komendy z !bot tekst zostają", "en": "the commands of !bot text stay"} {
		t.Run(lang, func(t *testing.T) {
			d := textDeps(t)
			d.Lang = lang
			c := newConsole(t, d)
			ctx := context.Background()
			c.Answer(ctx, bot.AdminCall{Args: "tekst zasady Bądźcie mili.", Now: time.Now()})
			c.Answer(ctx, bot.AdminCall{Args: "off zasady", Now: time.Now()})
			if got := c.Answer(ctx, bot.AdminCall{Args: "reset", Now: time.Now()}); !strings.Contains(strings.ToLower(got), says) {
				t.Errorf("!bot reset = %q; want it to say %q", got, says)
			}
			if usage := c.Answer(ctx, bot.AdminCall{}); !strings.Contains(usage, says) {
				t.Errorf("the usage's !bot reset line does not say %q:\n%s", says, usage)
			}
			if !d.Changes.Set(time.Now()).Empty() {
				t.Errorf("changes after !bot reset: %+v", d.Changes.Set(time.Now()))
			}
			if cmd, ok := d.Registry.Resolve("zasady"); !ok || bot.NewSettings(nil, d.Changes).Off(cmd) {
				t.Error("!zasady does not answer after !bot reset")
			}
		})
	}
}
