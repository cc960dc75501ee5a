package admin_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// !bot tekst through the whole bot, answering everyone (so only the admin
// check stands between a non-admin and the console): a non-admin's !bot
// tekst in a direct chat and an admin's in the group get nothing, make
// nothing and are counted; an admin's in a direct chat makes !zasady,
// which a member gets in the group. Switched off and removed, !zasady made
// anew answers: the old switch does not bite it. (A use of the old one
// counts against its user for the new one's cooldown, as across a
// replacement.)
func TestTextVerbThroughTheBot(t *testing.T) {
	const admin, member, other = "+48600000100", "+48600000101", "+48600000102"
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"ADMINS": "ala=" + admin})
	h.Start()
	accepted := 0
	say := func(from, group, text string) {
		t.Helper()
		accepted++
		h.Say(from, group, text)
		h.WaitIdle(accepted)
	}
	say(member, "", "!bot tekst zasady od członka")
	say(admin, "testbot", "!bot tekst zasady z grupy")
	if sent := h.Sim.Sent(); len(sent) != 0 {
		t.Fatalf("a non-admin's and a group's !bot tekst got %q; want nothing", sent[0].Message)
	}
	metrics := get(t, h.URL()+"/metrics")
	for _, want := range []string{`signal_bot_frames_ignored_total{reason="not_admin"} 1`, `signal_bot_frames_ignored_total{reason="admin_in_group"} 1`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	steps := []struct{ from, group, text, want string }{
		{member, "testbot", "!zasady", "Nie znam komendy !zasady"},
		{admin, "", "!bot tekst zasady Bądźcie dla siebie mili.", "Komenda !zasady zapisana."},
		{member, "testbot", "!zasady", "Bądźcie dla siebie mili."},
		{admin, "", "!bot off zasady", "Komenda !zasady wyłączona."},
		{admin, "", "!bot tekst zasady -", "Komenda !zasady usunięta."},
		{admin, "", "!bot tekst zasady Nowe zasady.", "Komenda !zasady zapisana."},
		{other, "testbot", "!zasady", "Nowe zasady."}, // member's use of the old !zasady would still count 10 s
	}
	for i, s := range steps {
		h.Say(s.from, s.group, s.text)
		if got := h.WaitSent(i + 1)[i].Message; !strings.HasPrefix(got, s.want) {
			t.Errorf("%s: %q; want %q", s.text, got, s.want)
		}
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
