package e2e

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// Socket activation as systemd does it, with the test as the service
// manager: it holds the listening socket and starts the bot with it as fd 3.
// The bot is killed; 50 webhook POSTs arrive while no bot process runs (the
// kernel queues their connections) and one more comes from the simulated
// REST API's own loop; a new bot process on the same socket answers all 51.
func TestActivationKeepsPosts(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const before, down = 5, 50
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["RECEIVE_MODE"], w.env["WEBHOOK_TOKEN"] = "webhook", botest.WebhookToken
	var msgs []sim.Message
	for i := range down {
		msgs = append(msgs, sim.Message{From: fmt.Sprintf("+4876100%04d", i), Text: "!pomoc"})
	}
	lines := botest.WebhookLines(t, w.sim, msgs...)

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
	p.journalSettled(t)
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
	testkit.WaitFor(t, "the kernel to queue the 50 connections", func() bool { return acceptQueue(t, addr) == down })
	w.say(t, "+48762000000", "!pomoc") // the REST API's loop POSTs it, and waits
	testkit.WaitFor(t, "the kernel to queue the REST API's POST too", func() bool { return acceptQueue(t, addr) == down+1 })
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
	per := botest.RepliesTo(sent)
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
