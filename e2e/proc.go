package e2e

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/activation"
)

// proc is one signal-bot process.
type proc struct {
	cmd    *exec.Cmd
	url    string
	stderr *testkit.SyncBuffer
	exited chan struct{}
	err    error // Wait's, once exited is closed
}

var httpLine = regexp.MustCompile(`msg="signal-bot running".* http=(http://\S+)`)

// startBot runs bin with env and waits until its websocket is connected. A
// process still running when the test ends is killed.
func startBot(t *testing.T, bin string, env map[string]string) *proc {
	t.Helper()
	return startCmd(t, exec.Command(bin), env)
}

// startCmd is startBot for a command that runs the bot some other way.
func startCmd(t *testing.T, cmd *exec.Cmd, env map[string]string) *proc {
	t.Helper()
	p := &proc{cmd: cmd, stderr: &testkit.SyncBuffer{}, exited: make(chan struct{})}
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
		if t.Failed() {
			t.Logf("signal-bot stderr:\n%s", p.stderr)
		}
	})
	testkit.WaitFor(t, "the bot's HTTP address", func() bool {
		if m := httpLine.FindStringSubmatch(p.stderr.String()); m != nil {
			p.url = m[1]
			return true
		}
		select {
		case <-p.exited:
			t.Fatalf("signal-bot exited at start: %v\n%s", p.err, p.stderr)
		default:
		}
		return false
	})
	testkit.WaitFor(t, "the websocket", func() bool { return p.health(t)["connected"] == true })
	return p
}

// startActivated starts bin as systemd would with socket activation: f as fd
// 3, LISTEN_FDS=1, and LISTEN_PID the bot's own pid, which only the process
// itself knows before it runs the bot, hence the shell's exec.
func startActivated(t *testing.T, bin string, env map[string]string, f *os.File) *proc {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh to set LISTEN_PID to the bot's pid: %v", err)
	}
	cmd := exec.Command(sh, "-c", `export LISTEN_PID=$$; exec "$0"`, bin)
	cmd.Env = []string{activation.EnvFDs + "=1", activation.EnvFDNames + "=http"}
	cmd.ExtraFiles = []*os.File{f}
	return startCmd(t, cmd, env)
}

// health reads /healthz (nil if the bot does not answer).
func (p *proc) health(t *testing.T) map[string]any {
	t.Helper()
	res, err := http.Get(p.url + "/healthz")
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatalf("/healthz: %v", err)
	}
	return m
}

// stop sends sig and returns the exit code (30 s at most).
func (p *proc) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("signal-bot still running 30 s after %v", sig)
	}
	return p.cmd.ProcessState.ExitCode()
}

// kill kills p with -9 and fails the test unless it died of it.
func (p *proc) kill(t *testing.T) {
	t.Helper()
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
}

// cutOff returns the count of the "frames cut off at shutdown" line, or -1.
func (p *proc) cutOff() int {
	m := regexp.MustCompile(`msg="frames cut off at shutdown" count=(\d+)`).FindStringSubmatch(p.stderr.String())
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// onDisk waits until /healthz satisfies cond and then until, in a later
// answer, the state writer has nothing pending, so that what cond saw (the
// journal entries, attempts or removals, and the uses queued before them)
// survives a kill -9. state.pending is the records added minus those
// committed, and it falls only once a commit has succeeded, so a 0 read
// after cond held covers every record queued before. They are two answers
// on purpose: one /healthz answer reads the writer's figures before the
// journal's, and may show a frame journaled (or finished) between the two
// reads beside a state.pending that does not count its record; a kill -9
// then loses it.
func (p *proc) onDisk(t *testing.T, what string, cond func(h map[string]any) bool) {
	t.Helper()
	testkit.WaitFor(t, what, func() bool { return cond(p.health(t)) })
	testkit.WaitFor(t, what+": on disk", func() bool {
		st, _ := p.health(t)["state"].(map[string]any)
		return st != nil && st["pending"] == float64(0)
	})
}

// journalSettled waits until the bot's journal has no frame pending and its
// state file nothing left to commit: every entry's removal on disk (onDisk).
func (p *proc) journalSettled(t *testing.T) {
	t.Helper()
	p.onDisk(t, "journal settled", func(h map[string]any) bool { return journalOf(h)["pending"] == float64(0) })
}

// journalOf is /healthz's journal object (nil if it has none).
func journalOf(h map[string]any) map[string]any {
	j, _ := h["journal"].(map[string]any)
	return j
}

// killAndWait kills p with -9 and waits until its socket is gone.
func (w *world) killAndWait(t *testing.T, p *proc) {
	t.Helper()
	p.kill(t)
	w.unsubscribed(t)
}
