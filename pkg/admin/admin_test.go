package admin

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/standing"
	"signal-bot/pkg/store"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		args     string
		wantSub  string
		wantRest []string
	}{
		{"", "", nil},
		{"   ", "", nil},
		{"status", "status", []string{}},
		{"STATUS", "status", []string{}},
		{"cooldown kot 1m", "cooldown", []string{"kot", "1m"}},
		{"  cooldown   kot\t1m ", "cooldown", []string{"kot", "1m"}},
		{"scope kot direct | rodzina", "scope", []string{"kot", "direct", "|", "rodzina"}},
		{"pauza 30m", "pauza", []string{"30m"}},
	} {
		sub, rest, _ := parse(tt.args)
		if sub != tt.wantSub || !slices.Equal(rest, tt.wantRest) {
			t.Errorf("parse(%q) = %q, %q; want %q, %q", tt.args, sub, rest, tt.wantSub, tt.wantRest)
		}
	}
}

// An admin's duration is 0 or one second to the limit, rounded to the
// second: 100 ns is refused as less than a second, not kept as 100 ns and
// confirmed as "1 s" (issue 33.10).
func TestParseDuration(t *testing.T) {
	for _, tt := range []struct {
		in      string
		max     time.Duration
		want    time.Duration
		wantWhy key
	}{
		{"1m", time.Hour, time.Minute, ""},
		{"90s", time.Hour, 90 * time.Second, ""},
		{"1h30m", 2 * time.Hour, 90 * time.Minute, ""},
		{"0", time.Hour, 0, ""},
		{"0s", time.Hour, 0, ""},
		{"1h", time.Hour, time.Hour, ""},
		{"1s", time.Hour, time.Second, ""},
		{"1.4s", time.Hour, time.Second, ""}, // kept as what a reply says
		{"2.5s", time.Hour, 3 * time.Second, ""},
		{"0.0000001s", time.Hour, 0, keyTooShort},
		{"100ns", time.Hour, 0, keyTooShort},
		{"999ms", time.Hour, 0, keyTooShort},
		{"61m", time.Hour, 0, keyBadDuration}, // over the limit
		{"-1m", time.Hour, 0, keyBadDuration},
		{"1", time.Hour, 0, keyBadDuration}, // no unit
		{"minuta", time.Hour, 0, keyBadDuration},
		{"", time.Hour, 0, keyBadDuration},
	} {
		got, why := parseDuration(tt.in, tt.max)
		if got != tt.want || why != tt.wantWhy {
			t.Errorf("parseDuration(%q, %v) = %v, %q; want %v, %q", tt.in, tt.max, got, why, tt.want, tt.wantWhy)
		}
	}
}

func TestParseAdmins(t *testing.T) {
	const uuid = "5E1C2A3B-0000-4000-8000-00000000000A"
	a, err := ParseAdmins([]string{"+48123456789", "ala=" + uuid})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in        signalapi.Incoming
		wantAlias string
		wantOK    bool
	}{
		{signalapi.Incoming{SenderNumber: "+48123456789"}, "", true},
		{signalapi.Incoming{SenderUUID: strings.ToLower(uuid)}, "ala", true}, // a hidden number: by uuid
		{signalapi.Incoming{SenderNumber: "+48999999999", SenderUUID: uuid}, "ala", true},
		{signalapi.Incoming{SenderNumber: "+48123456780"}, "", false},
		{signalapi.Incoming{}, "", false},
	} {
		alias, ok := a.Of(tt.in)
		if alias != tt.wantAlias || ok != tt.wantOK {
			t.Errorf("Of(%+v) = %q, %v; want %q, %v", tt.in, alias, ok, tt.wantAlias, tt.wantOK)
		}
	}
	for _, bad := range [][]string{
		{"48123456789"},                   // no +
		{"+48 123 456 789"},               // spaces
		{"+4812"},                         // too short
		{"ala"},                           // neither
		{"a b=+48123456789"},              // bad alias
		{"+48123456789", "+48123456789"},  // twice
		{uuid, strings.ToLower(uuid)},     // twice, by case
		{"5e1c2a3b-0000-4000-8000-00000"}, // a cut uuid
	} {
		if _, err := ParseAdmins(bad); err == nil {
			t.Errorf("ParseAdmins(%q) = nil error; want one", bad)
		} else if strings.Contains(err.Error(), "123456789") {
			t.Errorf("ParseAdmins(%q): the error %q prints the number", bad, err)
		}
	}
	if a, err := ParseAdmins(nil); err != nil || a.Len() != 0 {
		t.Errorf("ParseAdmins(nil) = %d admins, %v; want none, nil", a.Len(), err)
	}
}

// The changes made in chat outlive the store: set, closed, reopened, loaded;
// reset, reopened, loaded: none.
func TestChangesKeptInTheStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	aliases := map[string]string{"rodzina": rodzina}
	ctx := context.Background()
	open := func() (*store.Store, *Changes) {
		t.Helper()
		st, err := store.Open(store.Config{Path: path, CommitInterval: time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := LoadChanges(st, aliases, nil)
		if err != nil {
			t.Fatal(err)
		}
		return st, c
	}
	st, c := open()
	until := time.Unix(2_000_000_000, 0)
	for _, err := range []error{
		c.SetCooldown(ctx, "kot", time.Minute), c.SetScope(ctx, "cat", "direct|rodzina"),
		c.SetOff(ctx, "ja", true), c.SetOff(ctx, "pomoc", true), c.SetOff(ctx, "pomoc", false), c.Pause(ctx, until),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	st, c = open()
	want := "cooldown kot=1m0s, scope cat=direct|rodzina, off ja"
	if got := strings.Join(describeChanges(c.Set(time.Unix(0, 0))), ", "); got != want {
		t.Errorf("after a restart: %q; want %q", got, want)
	}
	if s, ok := c.Scope("cat"); !ok || !s.Allows(commands.Chat{GroupID: rodzina}) || s.Allows(commands.Chat{GroupID: "other"}) {
		t.Errorf("after a restart: the scope of cat = %+v, %v; want direct and rodzina", s, ok)
	}
	if got := c.PausedUntil(until.Add(-time.Second)); !got.Equal(until) {
		t.Errorf("after a restart: paused until %v; want %v", got, until)
	}
	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	st.Close()
	st, c = open()
	defer st.Close()
	if s := c.Set(time.Unix(0, 0)); !s.Empty() {
		t.Errorf("after a reset and a restart: %+v; want no changes", s)
	}
}

// A scope set in chat names groups by alias only: an id would show in !bot
// status and /healthz.
func TestChangesScopeByAliasOnly(t *testing.T) {
	c := NewChanges(nil, map[string]string{"rodzina": rodzina})
	for spec, ok := range map[string]bool{
		"direct": true, "*": true, "groups": true, "rodzina": true, "direct|rodzina": true, " direct | rodzina ": true,
		"group." + rodzina: false, rodzina: false, "sąsiedzi": false, "": false,
	} {
		if _, err := c.ParseScope(spec); (err == nil) != ok {
			t.Errorf("ParseScope(%q) = %v; want ok %v", spec, err, ok)
		}
	}
}

// !bot status stays under Signal's 2000 bytes with the most it can list:
// many groups with a budget each, a change to every command, every pause, a
// captcha asked for, members unreachable for both reasons, both languages.
// What does not fit is the tail of the last lists; the lines of the state
// above them stay whole.
func TestStatusUnder2000Bytes(t *testing.T) {
	aliases := map[string]string{}
	for i := range 40 {
		aliases[fmt.Sprintf("grupa-z-dluga-nazwa-%02d", i)] = fmt.Sprintf("id%02d", i)
	}
	for _, lang := range commands.Languages() {
		d := testDeps(t)
		d.Lang = lang
		d.Groups = bot.NewGroups(aliases, nil)
		d.Changes = NewChanges(nil, aliases)
		d.Status = StatusInfo{Version: strings.Repeat("v", 64), Started: time.Unix(0, 0), ReceiveMode: "websocket"}
		d.Gate = outbound.New(outbound.Config{SendBudget: "on", ChatBudget: "100/1h", AttachmentBudget: "10/1m",
			RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour})
		d.Gate.RateLimited(time.Now(), 0, []string{"tok"})
		since := time.Now()
		d.Account = stillAccount{standing.Unreachable{Members: 1024, ByReason: map[string]int{"identity": 512, "unregistered": 512}, Since: &since}}
		ctx := context.Background()
		for _, name := range []string{"pomoc", "ja", "cat", "kot", strings.Repeat("x", commands.MaxNameRunes)} {
			_ = d.Changes.SetCooldown(ctx, name, maxCooldown)
			_ = d.Changes.SetScope(ctx, name, "direct|grupa-z-dluga-nazwa-00|grupa-z-dluga-nazwa-01")
			_ = d.Changes.SetOff(ctx, name, true)
		}
		_ = d.Changes.Pause(ctx, time.Now().Add(time.Hour))
		var slots []string
		for i := range 40 {
			slots = append(slots, fmt.Sprintf("grupa-z-dluga-nazwa-%02d=%s@%02d:00", i, strings.Repeat("x", commands.MaxNameRunes), i%24))
		}
		d.Planner = &memPlanner{plan: strings.Join(slots, ","), at: time.Now()}
		c := newConsole(t, d)
		now := time.Now()
		got := c.Answer(ctx, bot.AdminCall{Args: "status", Now: now})
		if len(got) >= 2000 || !utf8.ValidString(got) {
			t.Errorf("%s: !bot status of %d bytes; want < 2000, whole runes:\n%s", lang, len(got), got)
		}
		for _, line := range []statusLine{(*Console).statusBudget, (*Console).status429, (*Console).statusCaptcha, (*Console).statusUnreachable, (*Console).statusPause} {
			if want := line(c, now, c.t); want == "" || !strings.Contains(got, "\n"+want+"\n") {
				t.Errorf("%s: !bot status lacks the whole line %q:\n%s", lang, want, got)
			}
		}
		if usage := c.Answer(ctx, bot.AdminCall{}); len(usage) >= 2000 {
			t.Errorf("%s: !bot's usage of %d bytes; want < 2000", lang, len(usage))
		}
	}
}

// What each !bot call answers, and what it changes: the table of
// subcommands, their arguments and their refusals.
func TestAdminReplies(t *testing.T) {
	d := testDeps(t) // its registry: !pomoc (aliases help, pomocy), 10 s; its changes name rodzina
	c := newConsole(t, d)
	ctx := context.Background()
	now := time.Unix(1_700_000_000, 0).UTC()
	for _, tt := range []struct {
		args, want, wantChanges string
	}{
		{"", "Komendy administratora", ""},
		{"nieznana", "!bot reset — ", ""},
		{"cooldown pomoc", "!bot cooldown <komenda> <czas>", ""}, // too few arguments: the usage
		{"cooldown help 1m", "!pomoc: co 1 min (środowisko: 10 s).", "cooldown pomoc=1m0s"},
		{"COOLDOWN !pomocy 0s", "!pomoc: co 0 s (środowisko: 10 s).", "cooldown pomoc=0s"},
		{"cooldown pomoc 25h", "Nie rozumiem czasu \"25h\"", "cooldown pomoc=0s"},
		{"cooldown kot 1m", "Nie ma komendy !kot.", "cooldown pomoc=0s"},
		{"scope pomoc direct | rodzina", "!pomoc działa teraz w: direct|rodzina.", "cooldown pomoc=0s, scope pomoc=direct|rodzina"},
		{"scope pomoc sąsiedzi", "Zły zakres: ", "cooldown pomoc=0s, scope pomoc=direct|rodzina"},
		{"off help", "!pomoc wyłączona.", "cooldown pomoc=0s, scope pomoc=direct|rodzina, off pomoc"},
		{"on pomoc", "!pomoc włączona.", "cooldown pomoc=0s, scope pomoc=direct|rodzina"},
		{"pauza 2h", "Pauza do 2023-11-15 00:13:20 UTC", "cooldown pomoc=0s, scope pomoc=direct|rodzina"},
		{"pauza tydzień", "Nie rozumiem czasu", "cooldown pomoc=0s, scope pomoc=direct|rodzina"},
		{"status", "pauza (!bot pauza) do ", "cooldown pomoc=0s, scope pomoc=direct|rodzina"},
		{"pauza 0", "Koniec pauzy.", "cooldown pomoc=0s, scope pomoc=direct|rodzina"},
		{"reset", "Zmiany z czatu usunięte", ""},
	} {
		got := c.Answer(ctx, bot.AdminCall{Args: tt.args, Admin: "ala", Now: now})
		if !strings.Contains(got, tt.want) {
			t.Errorf("!bot %s = %q; want it to contain %q", tt.args, got, tt.want)
		}
		if got := strings.Join(describeChanges(d.Changes.Set(now)), ", "); got != tt.wantChanges {
			t.Errorf("after !bot %s: changes %q; want %q", tt.args, got, tt.wantChanges)
		}
	}
	if !d.Changes.PausedUntil(now).IsZero() {
		t.Error("paused after !bot reset")
	}
}
