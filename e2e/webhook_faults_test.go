package e2e

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// The state file on a filesystem that fills up, in webhook mode: a small
// tmpfs in a mount namespace of the bot's own (unshare -rm), filled and
// emptied by the test through /proc/<pid>/root. While it is full every
// commit fails, and each POST is answered 200 within WEBHOOK_SYNC_WAIT or at
// once, the frame taken in memory: the replies keep flowing, /healthz is
// degraded with the reason and counts them. Once space returns, the writer's
// retry commits what waited: /healthz is ok again, and every use of the
// outage is in the file. Before, the POST waited for an fsync that never
// succeeded, and the REST API's one posting loop with it: 0 replies.
func TestStateDiskFull(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	if out, err := exec.Command("unshare", "-rm", "true").CombinedOutput(); err != nil {
		t.Skipf("no mount namespace on this machine (unshare -rm: %v %s); the logic is pkg/journal TestSyncBoundedWhileCommitsFail", err, out)
	}
	w := webhookWorld(t)
	dir := t.TempDir()
	w.env["STATE_PATH"] = filepath.Join(dir, "state", "state.db")
	w.env["WEBHOOK_SYNC_WAIT"] = "200ms"
	cmd := exec.Command("unshare", "-rm", "sh", "-c", `mount -t tmpfs -o size=2m tmpfs "$0" && exec "$1"`, dir, bin)
	p := startCmd(t, cmd, w.env)
	number := func(i int) string { return fmt.Sprintf("+4878400%04d", i) }
	for i := range 3 {
		w.say(t, number(i), "!pomoc")
	}
	w.waitSent(t, 3)
	inside := filepath.Join("/proc", fmt.Sprint(p.cmd.Process.Pid), "root", dir)
	fill(t, filepath.Join(inside, "fill"))
	// A frame whose journal entry needs new pages of the file, where a
	// small one could reuse freed ones; then ordinary frames.
	if _, err := w.sim.Deliver(sim.Message{From: number(3), Text: "!pomoc " + strings.Repeat("x", 512<<10)}); err != nil {
		t.Fatal(err)
	}
	const during = 20
	for i := range during {
		w.say(t, number(4+i), "!pomoc")
	}
	w.waitSent(t, 4+during)
	h := p.health(t)
	t.Logf("/healthz while the disk is full: %v", h)
	j, _ := h["journal"].(map[string]any)
	reasons := fmt.Sprint(h["reasons"])
	if h["status"] != "degraded" || !strings.Contains(reasons, "webhook frames taken in memory, not on disk") || j == nil || j["not_durable"].(float64) < during || j["not_durable_pending"].(float64) < 1 {
		t.Errorf("/healthz while the disk is full = %v; want degraded, the frames taken in memory counted", h)
	}
	if n := strings.Count(p.stderr.String(), "webhook frame taken in memory"); n != 1 {
		t.Errorf("%d lines for the frames taken in memory; want 1 (a line a minute)", n)
	}
	if err := os.Remove(filepath.Join(inside, "fill")); err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, "/healthz ok once space returns", func() bool {
		h := p.health(t)
		st, _ := h["state"].(map[string]any)
		return h["status"] == "ok" && st != nil && st["pending"] == float64(0)
	})
	copyFile(t, filepath.Join(inside, "state", "state.db"), filepath.Join(t.TempDir(), "copy.db"), func(path string) {
		uses, _ := botest.ReadUses(t, path, "pomoc", 4+during, number)
		for i := range 4 + during {
			if uses[number(i)] != 1 {
				t.Errorf("%s: %d uses on disk after the outage; want 1", number(i), uses[number(i)])
			}
		}
	})
	if st := w.sim.Stats(); st.WebhookFailed != 0 {
		t.Errorf("%d webhook POSTs failed; want 0", st.WebhookFailed)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
}

// floodBody is a receive line of size bytes from sender, !pomoc with a long
// argument, made of a head and tail of its own around a padding shared by
// every POST, so that the test does not hold 256 copies of it.
func floodBody(from, account string, ts int64, pad []byte) (io.Reader, int64) {
	head := fmt.Sprintf(`{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"source":%q,"sourceNumber":%q,"timestamp":%d,"dataMessage":{"timestamp":%d,"message":"!pomoc `, from, from, ts, ts)
	tail := fmt.Sprintf(`"}},"account":%q}}`, account)
	return io.MultiReader(strings.NewReader(head), bytes.NewReader(pad), strings.NewReader(tail)), int64(len(head) + len(pad) + len(tail))
}

// floodRound POSTs posts big lines at once, straight to the bot's webhook,
// and counts the answers by status (0: the connection closed first).
func floodRound(t *testing.T, url, account string, round, posts int, pad []byte, counts map[int]int) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: posts}}
	defer client.CloseIdleConnections()
	for i := range posts {
		wg.Go(func() {
			body, n := floodBody(fmt.Sprintf("+4878500%04d", i), account, int64(round*posts+i+1), pad)
			req, err := http.NewRequest(http.MethodPost, url+"/_webhook?token="+botest.WebhookToken, body)
			if err != nil {
				t.Error(err)
				return
			}
			req.ContentLength = n
			req.Header.Set("Content-Type", "application/json")
			status := 0
			if res, err := client.Do(req); err == nil {
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				status = res.StatusCode
			}
			mu.Lock()
			counts[status]++
			mu.Unlock()
		})
	}
	wg.Wait()
}

// 256 POSTs of 4 MB at once, three rounds (one under -race, where the peak
// RSS is logged but not held to its bound), from 256 senders, straight to
// the webhook (HTTP_MAX_CONNS raised so that every one is read or refused
// by the webhook, not by the connection limit). The bodies are read within
// WEBHOOK_READ_BYTES and the frames held within QUEUE_BYTES; the others are
// answered 503 at once, unread. The bot's peak RSS (VmHWM) is logged and,
// without the race detector (whose shadow memory multiplies it), held to
// the bound docs/faults.md §8 states; the drops and the refusals are one
// line each, and the bot answers an ordinary message afterwards. Before,
// the bot reached 2.2 GB.
func TestWebhookFlood(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	w := webhookWorld(t)
	w.env["HTTP_MAX_CONNS"] = "1024"
	p := startBot(t, bin, w.env)
	const posts, size = 256, 4_000_000
	rounds := 3
	if raceEnabled {
		rounds = 1 // the rounds are for the peak RSS, which -race's shadow memory hides
	}
	pad := bytes.Repeat([]byte("x"), size-300)
	counts := map[int]int{}
	for r := range rounds {
		floodRound(t, p.url, w.sim.Number(), r, posts, pad, counts)
	}
	testkit.WaitFor(t, "the bot idle after the flood", func() bool {
		h := p.health(t)
		return h["queue_depth"] == float64(0) && h["active"] == float64(0)
	})
	peak := procStatus(t, p.cmd.Process.Pid, "VmHWM")
	h := p.health(t)
	t.Logf("%d × %d POSTs of %d bytes: answers by status %v (0: connection closed first); accepted %v, dropped %v, webhook %v; peak RSS (VmHWM) %.1f MiB",
		rounds, posts, size, counts, h["accepted"], h["dropped"], h["webhook"], float64(peak)/(1<<20))
	if counts[http.StatusOK] == 0 || counts[http.StatusServiceUnavailable] == 0 {
		t.Errorf("answers %v; want some taken (200) and some refused (503)", counts)
	}
	if !raceEnabled && peak > floodBound {
		t.Errorf("peak RSS %.1f MiB; want at most %.0f MiB", float64(peak)/(1<<20), float64(floodBound)/(1<<20))
	}
	logs := p.stderr.String()
	for _, line := range []string{"webhook POST refused unread", "frame dropped"} {
		if n := strings.Count(logs, line); n > 1 {
			t.Errorf("%d lines %q in one flood; want at most 1 (a line a minute)", n, line)
		}
	}
	before := len(w.sim.Sent())
	w.say(t, "+48785999999", "!pomoc")
	w.waitSent(t, before+1)
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
}

// floodBound is the peak RSS the flood may reach: about twice the bytes the
// webhook may hold, WEBHOOK_READ_BYTES (16 MiB) + QUEUE_BYTES (32 MiB),
// each held frame counted twice (its line and its decoded text), plus the
// journal's copies until their commit and the runtime's base.
const floodBound = 256 << 20
