package commands_test

import (
	"regexp"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// With REPLY_LANG=en every command and every refusal answers in English, naming
// the commands by their English names (!help, !me), and the Polish names and
// aliases still work.
func TestEveryReplyInEnglish(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"REPLY_LANG": "en", "SCOPES": "cat=direct"})
	h.Start()
	steps := []struct {
		from, group, text string
		want              string // a regexp of the whole reply (without the time left, which depends on the machine's speed)
		picture           bool
	}{
		{botest.Alice, "testbot", "!pomoc", `^Commands in this chat:\n`, false},
		{botest.Alice, "testbot", "!help", `^Commands in this chat:\n`, false},
		{botest.Alice, "testbot", "!pomocy", `^Commands in this chat:\n`, false},
		{botest.Alice, "testbot", "!ja", `^Stats: you\n!me — 1 time\n!help — 3 times$`, false},
		{botest.Alice, "testbot", "!me", `^Wait [1-5] s more before you use !me again\.$`, false},
		{botest.Alice, "testbot", "!kot", `^🐈$`, true},
		{botest.Alice, "testbot", "!kitku", `^Wait [1-3]?\d s more before you use !kot again\.$`, false},
		{botest.Alice, "testbot", "!cat", `^The command !cat does not work in this chat\. Write !help to see what works here\.$`, false},
		{botest.Alice, "testbot", "!nieznana", `^I do not know the command !nieznana\. Write !help to see the list of commands\.$`, false},
		{botest.Bob, "", "!cat", `^🐱$`, true},
		{botest.Bob, "", "!staty", `^Stats: you\n!cat — 1 time, again in [1-3]?\d s\n!me — 1 time$`, false},
	}
	polish := regexp.MustCompile(`[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]|Komend|Poczekaj|Statystyki|Przepraszam|razy|\(co `)
	for i, st := range steps {
		h.Say(st.from, st.group, st.text)
		got := h.WaitSent(i + 1)[i]
		if !regexp.MustCompile(st.want).MatchString(got.Message) || (len(got.Attachments) == 1) != st.picture {
			t.Errorf("%s: reply %q with %d attachments; want %q, picture %v", st.text, got.Message, len(got.Attachments), st.want, st.picture)
		}
		if polish.MatchString(got.Message) {
			t.Errorf("%s: reply %q is (partly) Polish", st.text, got.Message)
		}
	}
	help := h.Sim.Sent()[0].Message
	for _, line := range []string{"!me — your stats (every 5 s)", "!kot — a random cat photo from Wikimedia Commons (every 30 s)", "!help — this list"} {
		if !strings.Contains(help, line) {
			t.Errorf("!pomoc in English = %q; want a line %q", help, line)
		}
	}
	if strings.Contains(help, "!cat") {
		t.Errorf("!pomoc in the group lists !cat, scoped to direct chats: %q", help)
	}
}
