package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"signal-bot/internal/testkit"

	"github.com/sethvargo/go-envconfig"
)

// The sandbox loads COMMANDS_FILE as the bot does: a text command and a
// hook (a server on loopback) both answer the typist.
func TestSandboxCommandsFile(t *testing.T) {
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "Tokio: 21:00")
	}))
	defer hook.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "commands.toml")
	toml := "[[command]]\nname = \"zasady\"\nsummary = { pl = \"zasady\" }\ntext = \"Bądźcie mili.\"\n\n" +
		"[[command]]\nname = \"czas\"\nsummary = { pl = \"czas\" }\nhook = \"" + hook.URL + "/czas\"\n"
	if err := os.WriteFile(file, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	env := envconfig.MapLookuper(map[string]string{
		"HTTP_ADDR": "127.0.0.1:0", "STATE_PATH": filepath.Join(dir, "state.db"), "SANDBOX_LATENCY": "zero",
		"POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0", "COMMANDS_FILE": file,
	})
	in, typed := io.Pipe()
	var screen testkit.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, stdio{env: env, in: in, out: &screen, errOut: io.Discard}) }()
	defer func() {
		cancel()
		typed.Close()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	for _, line := range []string{"!zasady", "!czas Tokio"} {
		if _, err := io.WriteString(typed, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	testkit.WaitFor(t, "both replies", func() bool {
		s := screen.String()
		return strings.Contains(s, "Bądźcie mili.") && strings.Contains(s, "Tokio: 21:00") && strings.Contains(s, "↳ czas ")
	})
}

// The typist, as the admin in a direct chat, makes a text command with
// !bot tekst; in the group, !zasady answers its text, to a member too. A
// member's !bot tekst in a direct chat changes nothing.
func TestSandboxTextCommand(t *testing.T) {
	sr := runSandbox(t, map[string]string{"HTTP_ADDR": "127.0.0.1:0", "POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0"})
	sr.waitScreen(firstScreenEnd)
	sr.say("/dm")
	sr.say("!bot tekst zasady Bądźcie dla siebie mili.")
	sr.waitScreen("bot → admin, direct: Komenda !zasady zapisana.\n")
	sr.say("/as member")
	sr.say("!bot tekst zasady Nic.")
	sr.say("/group")
	sr.waitScreen("== member " + memberNumber + " (Ola), in the group testbot\n")
	sr.say("!zasady")
	sr.waitScreen("bot → testbot: Bądźcie dla siebie mili.\n")
	sr.waitScreen("↳ zasady  own_ms=")
	sr.metric(`signal_bot_frames_ignored_total{reason="not_admin"} 1`)
	if strings.Contains(sr.screen.String(), "bot → member, direct") {
		t.Errorf("the member's !bot tekst got a reply:\n%s", sr.screen.String())
	}
}
