package app_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testCommandsFileMistakes starts the bot with a COMMANDS_FILE that has
// three mistakes on known lines: it exits 2 before it starts, and its one
// message names all three, each with the file's line and the command.
func testCommandsFileMistakes(t *testing.T, bin string) {
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
