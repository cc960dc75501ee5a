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
	"time"
)

// TestBadSecrets runs the bot with settings it must refuse at start (issue
// 11): the example's token, a short token, and SIGNAL_NUMBER without
// SIGNAL_API_URL (which used to start the sandbox on the production
// STATE_PATH), and webhook mode without WEBHOOK_TOKEN while a frame can carry
// power (issue 33). Each exits 2 with one line naming the variable.
func TestBadSecrets(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	tests := []struct {
		name     string
		env      []string
		wantLine string
	}{
		{"the example token", []string{"SELFTEST_TOKEN=REPLACE_WITH_A_RANDOM_TOKEN"}, "SELFTEST_TOKEN is the example's placeholder"},
		{"a 10-character selftest token", []string{"SELFTEST_TOKEN=0123456789"}, "SELFTEST_TOKEN must be at least 32 characters"},
		{"a 10-character webhook token", []string{"WEBHOOK_TOKEN=0123456789"}, "WEBHOOK_TOKEN must be at least 32 characters"},
		{"a number without the REST API", []string{"SIGNAL_NUMBER=+48500000001"}, "SIGNAL_API_URL is required with SIGNAL_NUMBER"},
		{"an open webhook while the owner's frames carry power", []string{"RECEIVE_MODE=webhook", "SIGNAL_API_URL=http://127.0.0.1:1", "SIGNAL_NUMBER=+48500000001"},
			"WEBHOOK_TOKEN is required with RECEIVE_MODE=webhook when OWNER_COMMANDS=on"},
		{"an open webhook while ADMINS is set", []string{"RECEIVE_MODE=webhook", "SIGNAL_API_URL=http://127.0.0.1:1", "SIGNAL_NUMBER=+48500000001", "ADMINS=+48500000002", "OWNER_COMMANDS=off"},
			"WEBHOOK_TOKEN is required with RECEIVE_MODE=webhook when ADMINS is set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := exec.Command(bin)
			cmd.Env = append([]string{"HTTP_ADDR=127.0.0.1:0", "STATE_PATH=" + t.TempDir() + "/state.db"}, tt.env...)
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("signal-bot: %v; want exit status 2\n%s", err, stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], tt.wantLine) {
				t.Errorf("stderr = %q; want one line saying %q", stderr.String(), tt.wantLine)
			}
		})
	}
}

// TestSandboxState starts the sandbox (neither SIGNAL_API_URL nor
// SIGNAL_NUMBER set) without STATE_PATH: it must keep its state beside the
// production default, never in it, and its log beside its state.
func TestSandboxState(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = []string{"HTTP_ADDR=127.0.0.1:0", "SANDBOX_LATENCY=zero"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	logPath := filepath.Join(dir, "state", "sandbox.log")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(logPath); bytes.Contains(b, []byte(`msg="signal-bot running"`)) {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the sandbox exited before it was running: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			<-exited
			t.Fatalf("the sandbox was not running within 30 s (no start line in %s)", logPath)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Errorf("sandbox exit: %v; want 0", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "state", "sandbox.db")); err != nil {
		t.Errorf("sandbox state file: %v; want state/sandbox.db", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "state", "signal-bot.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the production default state/signal-bot.db: %v; want it never created by the sandbox", err)
	}
}
