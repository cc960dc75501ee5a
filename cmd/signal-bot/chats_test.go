package main

import (
	"errors"
	"net"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/sim"
)

// The typist speaks in every chat: a direct chat as the admin (!bot status
// answers), Note-to-Self as the owner (the list, sent to the account's own
// number), a direct chat as a stranger (nothing: ANSWER_IN's default), and
// a group again (the list). Each slash command says where the typist is;
// each typed line is echoed with where it goes.
func TestSandboxChats(t *testing.T) {
	sr := runSandbox(t, map[string]string{"HTTP_ADDR": "127.0.0.1:0", "POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0"})
	sr.waitScreen(firstScreenEnd)
	sr.say("/dm")
	sr.waitScreen("== admin " + sandboxUser + " (Ty), in a direct chat with the bot\n")
	sr.say("!bot status")
	sr.waitScreen("admin → bot, direct: !bot status\n")
	sr.waitScreen("↳ bot ")
	if !strings.Contains(sr.screen.String(), "bot → admin, direct: ") {
		t.Fatalf("no reply in the admin's direct chat:\n%s", sr.screen.String())
	}

	sr.say("/note")
	sr.waitScreen("== the account's owner, in Note-to-Self")
	sr.say("!pomoc")
	sr.waitScreen("owner → Note-to-Self: !pomoc\n")
	sr.waitScreen("bot → Note-to-Self: Komendy w tym czacie:\n    !cat")

	sr.say("/as stranger")
	sr.say("/dm")
	sr.waitScreen("== stranger " + strangerNumber + " (Obcy), in a direct chat with the bot\n== in no group")
	sr.say("!pomoc")
	sr.waitScreen("stranger → bot, direct: !pomoc\n")
	sr.metric(`signal_bot_frames_ignored_total{reason="answer_in"} 1`)

	sr.say("/as admin")
	sr.say("/group testbot")
	sr.waitScreen("== admin " + sandboxUser + " (Ty), in the group testbot\n")
	sr.say("!pomoc")
	sr.waitScreen("admin → testbot: !pomoc\n")
	sr.waitScreen("bot → testbot: Komendy w tym czacie:\n    !cat")
	if strings.Contains(sr.screen.String(), "bot → stranger") {
		t.Errorf("the stranger got a reply in a direct chat:\n%s", sr.screen.String())
	}
}

// The first screen fits 80 columns, names the sandbox's own commands and
// the -h command that works from a fresh clone.
func TestFirstScreen(t *testing.T) {
	sr := runSandbox(t, map[string]string{"HTTP_ADDR": "127.0.0.1:0", "POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0"})
	sr.waitScreen(firstScreenEnd)
	head, _, _ := strings.Cut(sr.screen.String(), firstScreenEnd)
	head += firstScreenEnd
	for _, l := range strings.Split(head, "\n") {
		// 🔁 takes two columns in a terminal.
		if w := utf8.RuneCountInString(l) + strings.Count(l, "🔁"); w > 80 && !strings.Contains(l, sr.logPath) {
			t.Errorf("first screen line of %d columns: %q", w, l)
		}
	}
	for _, want := range []string{"/dm", "/note", "/group", "/as admin|member|stranger", "/help", "go run ./cmd/signal-bot -h", sr.base} {
		if !strings.Contains(head, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, head)
		}
	}
}

// With 127.0.0.1:9923 held by another listener, the sandbox takes a free
// port, says which, and answers.
func TestSandboxBusyPort(t *testing.T) {
	const def = "127.0.0.1:9923"
	if ln, err := net.Listen("tcp", def); err == nil {
		defer ln.Close()
	} else if !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("hold %s: %v", def, err)
	} // else another process holds it: busy all the same
	sr := runSandbox(t, map[string]string{"POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0"})
	if strings.HasSuffix(sr.base, ":9923") {
		t.Fatalf("the bot runs on %s, which was busy", sr.base)
	}
	sr.waitScreen("The bot's endpoints: " + sr.base + " (" + def + " is busy); tools take --url\n")
	sr.say("!pomoc")
	sr.waitScreen("bot → testbot: Komendy w tym czacie:")
}

// The real bot on a busy HTTP_ADDR stops with a usage error (exit 2) of one
// line naming the address and the setting.
func TestBusyHTTPAddr(t *testing.T) {
	s := sim.New(sim.Config{})
	defer s.Close()
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	env := envconfig.MapLookuper(map[string]string{
		"SIGNAL_API_URL": url, "SIGNAL_NUMBER": s.Number(), "HTTP_ADDR": ln.Addr().String(),
		"STATE_PATH": filepath.Join(t.TempDir(), "state.db"), "POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0",
	})
	var stderr testkit.SyncBuffer
	err = run(t.Context(), nil, stdio{env: env, in: strings.NewReader(""), out: &stderr, errOut: &stderr})
	want := "HTTP_ADDR " + ln.Addr().String() + " is in use by another process"
	if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("run = %v; want a usage error of one line with %q", err, want)
	}
}

// The slash commands move the typist and say where; anything else after a
// slash is refused with a hint.
func TestSlash(t *testing.T) {
	groups := []string{"testbot", "rodzina"}
	tk := newTalk()
	tests := []struct{ line, reply, where string }{
		{"/dm", "== admin " + sandboxUser + " (Ty), in a direct chat with the bot", "admin → bot, direct"},
		{"/as member", "== member " + memberNumber + " (Ola), in a direct chat with the bot", "member → bot, direct"},
		{"/group", "== member " + memberNumber + " (Ola), in the group testbot", "member → testbot"},
		{"/group rodzina", "== member " + memberNumber + " (Ola), in the group rodzina", "member → rodzina"},
		{"/group nowhere", `== no group "nowhere" here; the groups: testbot, rodzina`, "member → rodzina"},
		{"/as king", "== /as admin, /as member or /as stranger", "member → rodzina"},
		{"/note", "== the account's owner, in Note-to-Self (owner mode); /dm, /group: member", "owner → Note-to-Self"},
		{"/as stranger", "== the account's owner, in Note-to-Self (owner mode); /dm, /group: stranger", "owner → Note-to-Self"},
		{"/shrug", "== /shrug is no sandbox command; /help lists them", "owner → Note-to-Self"},
		{"/help", slashHelp, "owner → Note-to-Self"},
		{"/dm", "== stranger " + strangerNumber + " (Obcy), in a direct chat with the bot\n" +
			"== in no group: ANSWER_IN=groups,members (the default) answers nothing", "stranger → bot, direct"},
	}
	for _, tt := range tests {
		if got := tk.slash(tt.line, groups); got != tt.reply {
			t.Errorf("%s: %q; want %q", tt.line, got, tt.reply)
		}
		if got := tk.where(); got != tt.where {
			t.Errorf("after %s: where %q; want %q", tt.line, got, tt.where)
		}
	}
	if n := strings.Count(slashHelp, "\n"); n != 1 {
		t.Errorf("/help is %d lines; want 2", n+1)
	}
	for _, tt := range tests {
		for _, l := range strings.Split(tk.slash(tt.line, groups), "\n") {
			if utf8.RuneCountInString(l) > 80 {
				t.Errorf("%s: a line of over 80 columns: %q", tt.line, l)
			}
		}
	}
}
