package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"signal-bot/pkg/sim"
)

// TestCommandsFileMistakes starts the bot with a COMMANDS_FILE that has
// three mistakes on known lines: it exits 2 before it starts, and its one
// message names all three, each with the file's line and the command.
func TestCommandsFileMistakes(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "commands.toml")
	file := `[[command]]
name = "zasady"
summary = { pl = "zasady grupy" }
text = "Bądźcie mili."
cooldown = "soon"

[[command]]
name = "help"
summary = { pl = "moja pomoc" }
text = "x"

[[command]]
name = "pogoda"
summary = { pl = "pogoda" }
hook = "http://127.0.0.1:8088/pogoda"
timeout = 5
`
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Env = []string{"HTTP_ADDR=127.0.0.1:0", "STATE_PATH=" + filepath.Join(dir, "state.db"), "COMMANDS_FILE=" + path}
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("signal-bot: %v; want exit status 2\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	want := []string{
		path + `:5: command "zasady": cooldown "soon" is no duration`,
		path + `:8: command "help": !help is a built-in command's name`,
		path + `:16: command "pogoda": timeout is an integer`,
	}
	if len(lines) != len(want) {
		t.Fatalf("stderr:\n%s\nwant %d lines", stderr.String(), len(want))
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %q; want it to say %q", i, lines[i], w)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "state.db")); err == nil {
		t.Error("the state file was created: the bot got past its configuration")
	}
}

// TestTextCommandSurvivesKill: an admin's !bot tekst zasady … in a direct
// chat, then a member's !zasady in the group gets the text; killed -9 right
// after the confirmation (the state file's window is a minute, so only the
// verb's own flush can have written it) and started again, it still does.
// A non-admin's !bot tekst changes nothing, and the names of !pomoc and
// !help are refused.
func TestTextCommandSurvivesKill(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const admin, member, stranger = "+48700000001", "+48700000002", "+48700000003"
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["ADMINS"], w.env["STATE_COMMIT_INTERVAL"] = "ala="+admin, "1m"
	p := startBot(t, bin, w.env)
	inGroup := func(from, text string) {
		t.Helper()
		if _, err := w.sim.Deliver(sim.Message{From: from, Group: "testbot", Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	w.say(t, stranger, "!bot tekst link https://example.org") // gets nothing, makes nothing
	w.say(t, admin, "!bot tekst pomoc moja pomoc")
	w.say(t, admin, "!bot tekst help moja pomoc")
	w.say(t, admin, "!bot tekst zasady Bądźcie dla siebie mili.")
	sent := w.waitSent(t, 3)
	for i, want := range []string{"Nazwa !pomoc jest już zajęta", "Nazwa !help jest już zajęta", "Komenda !zasady zapisana."} {
		if !strings.Contains(sent[i].Message, want) || sent[i].Recipients[0] != admin {
			t.Errorf("send %d: %q to %v; want %q to the admin", i, sent[i].Message, sent[i].Recipients, want)
		}
	}
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1", code)
	}
	w.quiet(t)
	w.sim.ClearSent()
	startBot(t, bin, w.env)
	inGroup(member, "!zasady")
	inGroup(member, "!link")
	w.say(t, member, "!pomoc")
	sent = w.waitSent(t, 3)
	byText := map[string]bool{}
	for _, s := range sent {
		byText[s.Message] = true
	}
	if !byText["Bądźcie dla siebie mili."] {
		t.Errorf("after kill -9 and a restart, !zasady got no text; sends %v", byText)
	}
	for _, s := range sent {
		switch {
		case strings.Contains(s.Message, "link"):
			if !strings.Contains(s.Message, "Nie znam komendy !link") {
				t.Errorf("!link: %q; want the unknown command's hint (the stranger made nothing)", s.Message)
			}
		case strings.HasPrefix(s.Message, "Komendy w tym czacie:"):
			if !strings.Contains(s.Message, "!zasady — Bądźcie dla siebie mili.") {
				t.Errorf("!pomoc lacks !zasady:\n%s", s.Message)
			}
		}
	}
}
