package admin_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// adminBot starts a bot whose ADMINS is ala=admin, answering everywhere.
func adminBot(t *testing.T, env map[string]string) *botest.Harness {
	t.Helper()
	if env == nil {
		env = map[string]string{}
	}
	env["ADMINS"] = "ala=" + botest.Admin
	h := botest.New(t, sim.Config{Lossless: true}, env)
	h.Start()
	return h
}

// kotRefusal has a fresh member use !kot in the group twice and returns the
// wait the refusal of the second names, in seconds.
func kotRefusal(t *testing.T, h *botest.Harness, member string) int {
	t.Helper()
	if got := h.Ask(member, "testbot", "!kot"); len(got.Attachments) != 1 {
		t.Fatalf("the first !kot: %q without a picture", got.Message)
	}
	got := h.Ask(member, "testbot", "!kot")
	wait, ok := botest.CooldownWait(got.Message)
	if !ok {
		t.Fatalf("the second !kot: %q; want a refusal that names the wait", got.Message)
	}
	return wait
}

// changesOf is /healthz's changes.
func changesOf(t *testing.T, h *botest.Harness) map[string]any {
	t.Helper()
	c, ok := h.Health()["changes"].(map[string]any)
	if !ok {
		t.Fatalf("/healthz has no changes: %v", h.Health())
	}
	return c
}

// `!bot cooldown kot 1m` from an admin in a direct chat: the next !kot
// refusals name a wait longer than the default 30 s allows, !pomoc and
// /healthz show it, the log names the admin by alias and never the number,
// and after a restart the same holds.
func TestAdminCooldownSurvivesRestart(t *testing.T) {
	t.Parallel()
	h := adminBot(t, nil)
	got := h.Ask(botest.Admin, "", "!bot cooldown kot 1m")
	if len(got.Recipients) != 1 || got.Recipients[0] != botest.Admin || !strings.Contains(got.Message, "!kot: co 1 min (środowisko: 30 s)") {
		t.Errorf("the admin's !bot cooldown: %q to %q; want the confirmation to the admin", got.Message, got.Recipients)
	}
	if wait := kotRefusal(t, h, "+48600000201"); wait <= 30 {
		t.Errorf("after !bot cooldown kot 1m: the refusal names %d s; want more than the default 30 s", wait)
	}
	if got := h.Ask("+48600000201", "testbot", "!pomoc"); !strings.Contains(got.Message, "!kot — losowy kot z Wikimedia Commons (co 1 min)") {
		t.Errorf("!pomoc after the change: %q; want !kot every 1 min", got.Message)
	}
	if cd, _ := changesOf(t, h)["cooldowns"].(map[string]any); cd["kot"] != float64(60e9) {
		t.Errorf("/healthz changes.cooldowns = %v; want kot 1m (60e9 ns)", cd)
	}
	logs := h.Logs.String()
	if !strings.Contains(logs, `msg="setting changed in chat" admin=ala change=cooldown command=kot cooldown=1m0s`) {
		t.Errorf("no log line of the change naming the admin by alias:\n%s", logs)
	}
	if strings.Contains(logs, botest.Admin) {
		t.Error("the log names the admin's number")
	}
	h.Stop()
	h.Start()
	if wait := kotRefusal(t, h, "+48600000202"); wait <= 30 {
		t.Errorf("after a restart: the refusal names %d s; want more than the default 30 s", wait)
	}
	var msgs []string
	for _, s := range h.Sim.Sent() {
		msgs = append(msgs, s.Message)
	}
	t.Logf("the simulator recorded %d sends: %q", len(msgs), msgs)
}

// A non-admin's !bot gets nothing and changes nothing, and so does an
// admin's in a group; both are counted.
func TestAdminNonAdminGetsNothing(t *testing.T) {
	t.Parallel()
	h := adminBot(t, nil)
	h.AskNothing(1, "+48600000300", "", "!bot cooldown kot 1m")
	h.AskNothing(2, "+48600000300", "", "!bot")
	h.AskNothing(3, botest.Admin, "testbot", "!bot cooldown kot 1m")
	if c := changesOf(t, h); len(c) != 0 {
		t.Errorf("/healthz changes = %v; want none", c)
	}
	fams := h.Scrape()
	for reason, want := range map[string]float64{"not_admin": 2, "admin_in_group": 1} {
		if got := botest.Value(fams, "signal_bot_frames_ignored_total", map[string]string{"reason": reason}); got != want {
			t.Errorf("signal_bot_frames_ignored_total{reason=%s} = %v; want %v", reason, got, want)
		}
	}
	if wait := kotRefusal(t, h, "+48600000301"); wait > 30 {
		t.Errorf("after a non-admin's !bot: the refusal names %d s; want the default 30 s at most", wait)
	}
	t.Logf("the simulator recorded only the member's !kot: %d sends", len(h.Sim.Sent()))
}

// The other subcommands, one after another on one bot: status, off and on,
// scope, pauza, reset.
func TestAdminSubcommands(t *testing.T) {
	t.Parallel()
	const member = "+48600000400"
	h := adminBot(t, nil)
	accepted := 0
	say := func(from, group, text string) sim.Sent { accepted++; return h.Ask(from, group, text) }
	quiet := func(from, group, text string) { accepted++; h.AskNothing(accepted, from, group, text) }
	want := func(got sim.Sent, what string, subs ...string) {
		t.Helper()
		for _, s := range subs {
			if !strings.Contains(got.Message, s) {
				t.Errorf("%s: %q; want it to contain %q", what, got.Message, s)
			}
		}
	}

	status := say(botest.Admin, "", "!bot status")
	want(status, "status", "signal-bot test, działa od ", "odbiór: websocket, połączony, ostatnia wiadomość: ", "kolejka: ",
		"budżet odpowiedzi", "ostatni 429: brak", "dziennik: ", "zmiany z czatu: brak")
	want(say(botest.Admin, "", "!bot"), "usage", "!bot status", "!bot cooldown", "!bot pauza", "!bot reset")

	want(say(botest.Admin, "", "!bot off kot"), "off", "!kot wyłączona.")
	quiet(member, "testbot", "!kot")
	if got := say(member, "testbot", "!pomoc"); strings.Contains(got.Message, "!kot") {
		t.Errorf("!pomoc with !kot off lists it: %q", got.Message)
	}
	if off, _ := changesOf(t, h)["off"].(map[string]any); off["kot"] != true {
		t.Errorf("/healthz changes.off = %v; want kot", off)
	}
	want(say(botest.Admin, "", "!bot on kot"), "on", "!kot włączona.")
	if got := say(member, "testbot", "!kot"); len(got.Attachments) != 1 {
		t.Errorf("!kot switched on again: %q without a picture", got.Message)
	}

	want(say(botest.Admin, "", "!bot scope cat direct"), "scope", "!cat działa teraz w: direct.")
	want(say(member, "testbot", "!cat"), "cat in the group", "Komenda !cat nie działa w tym czacie.")
	want(say(botest.Admin, "", "!bot scope cat group.abc"), "scope by id", "Zły zakres")

	want(say(botest.Admin, "", "!bot pauza 1h"), "pauza", "Pauza do ")
	quiet(member, "testbot", "!pomoc")
	want(say(botest.Admin, "", "!bot status"), "status in a pause", "pauza (!bot pauza) do ", "zmiany z czatu: scope cat=direct")
	want(say(botest.Admin, "", "!bot pauza 0s"), "end of the pause", "Koniec pauzy.")
	want(say(member, "testbot", "!pomoc"), "!pomoc after the pause", "Komendy w tym czacie:")

	want(say(botest.Admin, "", "!bot cooldown kotek 1m"), "no such command", "Nie ma komendy !kotek.")
	want(say(botest.Admin, "", "!bot cooldown kot wieczność"), "a bad duration", "Nie rozumiem czasu")
	want(say(botest.Admin, "", "!bot reset"), "reset", "Zmiany z czatu usunięte")
	if c := changesOf(t, h); len(c) != 0 {
		t.Errorf("/healthz changes after !bot reset = %v; want none", c)
	}
	want(say(botest.Admin, "", "!bot status"), "status after the reset", "zmiany z czatu: brak")
	if got := say(member, "testbot", "!cat"); len(got.Attachments) != 1 {
		t.Errorf("!cat in the group after the reset: %q without a picture", got.Message)
	}
	fams := h.Scrape()
	for reason, want := range map[string]float64{"off": 1, "paused": 1} {
		if got := botest.Value(fams, "signal_bot_frames_ignored_total", map[string]string{"reason": reason}); got != want {
			t.Errorf("signal_bot_frames_ignored_total{reason=%s} = %v; want %v", reason, got, want)
		}
	}
	t.Logf("the simulator recorded %d sends; !bot status read:\n%s", len(h.Sim.Sent()), status.Message)
}

// REPLY_LANG=en: !bot answers in English.
func TestAdminInEnglish(t *testing.T) {
	t.Parallel()
	h := adminBot(t, map[string]string{"REPLY_LANG": "en"})
	got := h.Ask(botest.Admin, "", "!bot status")
	for _, s := range []string{"signal-bot test, up for ", "receiving: websocket, connected", "changes made in chat: none"} {
		if !strings.Contains(got.Message, s) {
			t.Errorf("!bot status in English: %q; want it to contain %q", got.Message, s)
		}
	}
}

// With the default ANSWER_IN (groups, members) an admin who is no member of
// the groups still gets !bot's answer in a direct chat, though not !pomoc's.
func TestAdminOutsideAnswerIn(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"ADMINS": "ala=" + botest.Admin})
	h.SafeDefaults(nil)
	h.Start()
	h.AskNothing(1, botest.Admin, "", "!pomoc")
	if got := h.Ask(botest.Admin, "", "!bot status"); !strings.Contains(got.Message, "signal-bot test") {
		t.Errorf("!bot status outside ANSWER_IN: %q; want the status", got.Message)
	}
}
