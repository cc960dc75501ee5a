package app_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"signal-bot/pkg/activation"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// Socket activation as systemd does it, with the test as the service
// manager: it holds the listening socket and starts the bot with it as fd 3.
// The bot is killed; 50 webhook POSTs arrive while no bot process runs (the
// kernel queues their connections) and one more comes from the simulated
// REST API's own loop; a new bot process on the same socket answers all 51.
func testActivationKeepsPosts(t *testing.T, bin string) {
	const before, down = 5, 50
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["RECEIVE_MODE"], w.env["WEBHOOK_TOKEN"] = "webhook", botest.WebhookToken
	lines := captureLines(t, w.sim, down, func(i int) string { return fmt.Sprintf("+4876100%04d", i) })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	addr := ln.Addr().String()
	if err := w.sim.SetWebhookURL(webhookURL(addr)); err != nil {
		t.Fatal(err)
	}

	p := startActivated(t, bin, w.env, f)
	if p.url != "http://"+addr {
		t.Fatalf("the bot serves on %s; want the passed socket %s", p.url, addr)
	}
	for i := range before {
		w.say(t, fmt.Sprintf("+4876000%04d", i), "!pomoc")
	}
	w.waitSent(t, before)
	// What the kill must show is the socket keeping the POSTs of the downtime,
	// so nothing of before may be left to replay: the journal empty and its
	// "done" marks on disk. (A replay would only add replies to the senders of
	// before, which the counts below do not look at; this keeps the run the
	// one the test means.)
	journalSettled(t, p)
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}

	// No bot runs now. The POSTs connect all the same: the socket is open.
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 60 * time.Second}
	statuses := make([]int, down)
	var posts sync.WaitGroup
	defer posts.Wait() // before the deferred Closes: a failed test resets the queued connections
	for i, line := range lines {
		posts.Go(func() {
			res, err := client.Post(webhookURL(addr), "application/json", bytes.NewReader(line))
			if err != nil {
				t.Errorf("POST %d: %v", i, err)
				return
			}
			res.Body.Close()
			statuses[i] = res.StatusCode
		})
	}
	waitFor(t, "the kernel to queue the 50 connections", func() bool { return acceptQueue(t, addr) == down })
	w.say(t, "+48762000000", "!pomoc") // the REST API's loop POSTs it, and waits
	waitFor(t, "the kernel to queue the REST API's POST too", func() bool { return acceptQueue(t, addr) == down+1 })
	if n := len(w.sim.Sent()); n != before {
		t.Fatalf("%d replies while no bot ran; want the %d from before the kill", n, before)
	}

	p = startActivated(t, bin, w.env, f)
	sent := w.waitSent(t, before+down+1)
	posts.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("POST %d of the downtime: status %d; want 200", i, s)
		}
	}
	per := repliesTo(sent)
	for i := range down {
		if n := per[fmt.Sprintf("+4876100%04d", i)]; n != 1 {
			t.Errorf("sender %d of the downtime got %d replies; want 1", i, n)
		}
	}
	if n := per["+48762000000"]; n != 1 {
		t.Errorf("the REST API's POST of the downtime got %d replies; want 1", n)
	}
	if st := w.sim.Stats(); st.WebhookFailed != 0 {
		t.Errorf("the simulated REST API failed %d POSTs; want 0", st.WebhookFailed)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	t.Logf("socket activation: bot killed, %d POSTs + 1 from the REST API's loop queued by the kernel, %d of %d answered by the next process",
		down, len(sent)-before, down+1)
}

// journalSettled waits until the bot's journal has no frame pending and its state
// file nothing left to commit: every entry's removal on disk (onDisk).
func journalSettled(t *testing.T, p *proc) {
	t.Helper()
	onDisk(t, p, "journal settled", func(h map[string]any) bool { return journalOf(h)["pending"] == float64(0) })
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
func onDisk(t *testing.T, p *proc, what string, cond func(h map[string]any) bool) {
	t.Helper()
	waitFor(t, what, func() bool { return cond(p.health(t)) })
	waitFor(t, what+": on disk", func() bool {
		st, _ := p.health(t)["state"].(map[string]any)
		return st != nil && st["pending"] == float64(0)
	})
}

// journalOf is /healthz's journal object (nil if it has none).
func journalOf(h map[string]any) map[string]any {
	j, _ := h["journal"].(map[string]any)
	return j
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

// captureLines returns the JSON-RPC lines the simulated REST API POSTs for n
// direct !pomoc, one from each sender(i), the bodies a webhook gets.
func captureLines(t *testing.T, s *sim.Sim, n int, sender func(int) string) [][]byte {
	t.Helper()
	var mu sync.Mutex
	var lines [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		lines = append(lines, b)
		mu.Unlock()
	}))
	defer srv.Close()
	if err := s.SetWebhookURL(srv.URL); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := s.Deliver(sim.Message{From: sender(i), Text: "!pomoc"}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the simulator's POSTs", func() bool { mu.Lock(); defer mu.Unlock(); return len(lines) == n })
	return lines
}

// acceptQueue reads from /proc/net/tcp how many connections wait in the
// accept queue of the listening socket at addr (an IPv4 address): for a
// socket in LISTEN state the kernel reports that count as rx_queue.
func acceptQueue(t *testing.T, addr string) int {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	ip := net.ParseIP(host).To4()
	pn, err := strconv.Atoi(port)
	if ip == nil || err != nil {
		t.Fatalf("acceptQueue(%q): want an IPv4 address", addr)
	}
	// /proc/net/tcp writes the address as the 32-bit value in host order (little endian here).
	local := fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], pn)
	fh, err := os.Open("/proc/net/tcp")
	if err != nil {
		t.Fatalf("the accept queue is read from /proc/net/tcp: %v", err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 || fields[1] != local || fields[3] != "0A" { // 0A: LISTEN
			continue
		}
		_, rx, _ := strings.Cut(fields[4], ":")
		n, err := strconv.ParseInt(rx, 16, 64)
		if err != nil {
			t.Fatalf("/proc/net/tcp: %q: %v", sc.Text(), err)
		}
		return int(n)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no listening socket %s (%s) in /proc/net/tcp", addr, local)
	return 0
}
