package e2e

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestRenamedVariable runs the bot with GROUPS, the name SIGNAL_GROUPS
// replaced, still set, as an old env file would: it must stop at once with
// exit 2 and one line naming the new variable, before it touches anything.
func TestRenamedVariable(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	var stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Env = []string{"GROUPS=testbot=group.abc", "HTTP_ADDR=127.0.0.1:0", "STATE_PATH=" + t.TempDir() + "/state.db"}
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("signal-bot with GROUPS set: %v; want exit status 2\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "GROUPS is now SIGNAL_GROUPS") {
		t.Errorf("stderr = %q; want one line saying GROUPS is now SIGNAL_GROUPS", stderr.String())
	}
}
