package e2e

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/store"
)

// writeState leaves a state file at path as a bot would, with uses of 500
// senders in it.
func writeState(t *testing.T, path string) {
	t.Helper()
	st, err := store.Open(store.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 500 {
		if _, err := st.Use(fmt.Sprintf("+4874000%04d", i), "direct", "pomoc", time.Now(), 0, store.Ref{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

// stateFiles are the damaged state files of issue 20 item 3.
var stateFiles = []struct {
	name string
	make func(t *testing.T, path string)
}{
	{"truncated", func(t *testing.T, path string) {
		writeState(t, path)
		if err := os.Truncate(path, 8192); err != nil { // the two headers, nothing they point to
			t.Fatal(err)
		}
	}},
	{"garbage", func(t *testing.T, path string) {
		b := make([]byte, 64<<10)
		_, _ = rand.Read(b)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}},
}

// A damaged state file: exit 2 and, last on stderr, one line naming the
// file, what is wrong and both ways out; no panic; the file left as it was.
func TestDamagedStateStops(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	w := newWorld(t, sim.Config{})
	for _, tt := range stateFiles {
		t.Run(tt.name, func(t *testing.T) {
			path := t.TempDir() + "/state.db"
			tt.make(t, path)
			before, _ := os.ReadFile(path)
			var stderr bytes.Buffer
			cmd := exec.Command(bin)
			for k, v := range w.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			cmd.Env = append(cmd.Env, "STATE_PATH="+path)
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Fatalf("signal-bot: %v; want exit status 2\n%s", err, stderr.String())
			}
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			last := lines[len(lines)-1]
			for _, want := range []string{"signal-bot: state file " + path + " is damaged (", "docs/operations.md#backups", "mv " + path, "STATE_DAMAGED=aside"} {
				if !strings.Contains(last, want) {
					t.Errorf("last line %q; want it to say %q", last, want)
				}
			}
			if s := stderr.String(); strings.Contains(s, "panic") || strings.Contains(s, "goroutine ") {
				t.Errorf("stderr shows a panic:\n%s", s)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("the damaged file was changed; want it left for a restore")
			}
			t.Logf("%s: %s", tt.name, last)
		})
	}
}

// A 0-byte state file, and a damaged one with STATE_DAMAGED=aside, start
// fresh with a log line, and the bot answers.
func TestStateStartsFresh(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	tests := []struct {
		name, want string
		env        map[string]string
		make       func(t *testing.T, path string)
	}{
		{name: "0 bytes", want: `level=INFO msg="state file is empty: state starts fresh"`, make: func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "garbage, STATE_DAMAGED=aside", want: `level=WARN msg="state file damaged: moved aside, state starts fresh (STATE_DAMAGED=aside)"`,
			env: map[string]string{"STATE_DAMAGED": "aside"}, make: stateFiles[1].make},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, sim.Config{Lossless: true})
			tt.make(t, w.env["STATE_PATH"])
			for k, v := range tt.env {
				w.env[k] = v
			}
			p := startBot(t, bin, w.env)
			if !strings.Contains(p.stderr.String(), tt.want) {
				t.Errorf("stderr lacks %s:\n%s", tt.want, p.stderr)
			}
			w.say(t, "+48740001000", "!pomoc")
			w.waitSent(t, 1)
			if code := p.stop(t, syscall.SIGTERM); code != 0 {
				t.Errorf("exit code %d; want 0", code)
			}
		})
	}
}

// A state file of mode 0666 ends at 0600, with a warning.
func TestStateModeTightened(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	w := newWorld(t, sim.Config{})
	path := w.env["STATE_PATH"]
	writeState(t, path)
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	p := startBot(t, bin, w.env)
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v (%v); want 0600", fi.Mode().Perm(), err)
	}
	if want := `level=WARN msg="state file mode was looser than 0600: tightened to 0600" path=` + path + " was=0666"; !strings.Contains(p.stderr.String(), want) {
		t.Errorf("stderr lacks %s:\n%s", want, p.stderr)
	}
	p.stop(t, syscall.SIGTERM)
}

// A second bot on the state file of a running one exits 1 with one line
// naming the first one's pid, and is told so at once (the figure is
// logged: bbolt's lock wait, which was 5 s, is now 300 ms).
func TestSecondBotRefused(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	w := newWorld(t, sim.Config{})
	first := startBot(t, bin, w.env)
	var stderr bytes.Buffer
	cmd := exec.Command(bin)
	for k, v := range w.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("second signal-bot: %v; want exit status 1\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	want := fmt.Sprintf("signal-bot: state file %s is held by another signal-bot (pid %d, signal-bot)", w.env["STATE_PATH"], first.cmd.Process.Pid)
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, want) {
		t.Errorf("last line %q; want it to start %q", last, want)
	}
	t.Logf("second bot refused %v after its start: %s", took, lines[len(lines)-1])
	if code := first.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("the first bot's exit code %d; want 0", code)
	}
}

// SIGHUP is a drain like SIGTERM (docs/operations.md#restarts-signals-and-upgrades): logged, every
// accepted frame answered, every use committed, exit 0.
func TestSighupDrains(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const frames = 12
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 100 * time.Millisecond}})
	w.env["LIMIT"], w.env["SHUTDOWN_TIMEOUT"], w.env["STATE_COMMIT_INTERVAL"] = "2", "30s", "1m"
	p := startBot(t, bin, w.env)
	number := func(i int) string { return fmt.Sprintf("+4875000%04d", i) }
	for i := range frames {
		w.say(t, number(i), "!pomoc")
	}
	testkit.WaitFor(t, "every frame accepted", func() bool { return p.health(t)["accepted"] == float64(frames) })
	if h := p.health(t); h["queue_depth"] == float64(0) {
		t.Fatalf("the queue drained before SIGHUP (%v); the test would prove no drain", h)
	}
	if code := p.stop(t, syscall.SIGHUP); code != 0 {
		t.Fatalf("exit code %d after SIGHUP; want 0\n%s", code, p.stderr)
	}
	if want := `level=INFO msg="signal received: draining, then exiting" signal=SIGHUP`; !strings.Contains(p.stderr.String(), want) {
		t.Errorf("stderr lacks %s:\n%s", want, p.stderr)
	}
	if n := len(w.sim.Sent()); n != frames {
		t.Errorf("%d replies to %d accepted frames; want all", n, frames)
	}
	uses, _ := botest.ReadUses(t, w.env["STATE_PATH"], "pomoc", frames, number)
	for i := range frames {
		if uses[number(i)] != 1 {
			t.Errorf("%s: %d uses on disk; want 1 (the drain commits them)", number(i), uses[number(i)])
		}
	}
}
