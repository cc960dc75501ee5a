package e2e

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// kill -9 with 200 frames accepted and not yet answered (205 sent, 20 ms
// sends, LIMIT=1, killed after the first 5 replies): the next process replays them from the journal and every sender
// is answered. The frames in flight at the kill are counted, not assumed:
// after the kill the test reads the journal the dead process left on disk,
// and a frame both answered before the kill and still on disk (its reply
// went out, its "done" was not committed yet) is one in flight; it may be
// answered twice. So: replies in all <= 205 + in flight, and no frame is
// neither answered nor on disk.
func TestKillReplaysJournal(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	// 200 frames still unanswered at the kill, which comes after the first 5 replies.
	const frames = 200 + 5
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 20 * time.Millisecond}})
	w.env["LIMIT"] = "1" // the journal is on by default
	p := startBot(t, bin, w.env)
	w.subscribed(t)
	number := func(i int) string { return fmt.Sprintf("+4878000%04d", i) }
	for i := range frames {
		w.say(t, number(i), "!pomoc")
	}
	testkit.WaitFor(t, "every frame accepted", func() bool { return p.health(t)["accepted"] == float64(frames) })
	// Every frame's journal entry on disk: a commit that began after the
	// last one was accepted holds it, and the second commit from now began
	// after now. (A frame accepted within the last commit window before a
	// crash is not on disk yet, docs/faults.md §9; this test is about the
	// frames that are.)
	commits := func() float64 {
		st, _ := p.health(t)["state"].(map[string]any)
		c, _ := st["commits"].(float64)
		return c
	}
	c0 := commits()
	testkit.WaitFor(t, "two more commits", func() bool { return commits() >= c0+2 })
	w.waitSent(t, 5)
	h := p.health(t) // what the bot reports just before the kill, for the log
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	w.quiet(t) // a send under way at the kill may still be recorded
	before := botest.RepliesTo(w.sim.Sent())
	onDisk := journaledSenders(t, w.env["STATE_PATH"], frames, number)
	inFlight, lost := 0, 0
	for i := range frames {
		n := number(i)
		switch {
		case before[n] > 0 && onDisk[n]:
			inFlight++
		case before[n] == 0 && !onDisk[n]:
			lost++
			t.Errorf("%s: neither answered before the kill nor in the journal on disk", n)
		}
	}
	answeredBefore := len(w.sim.Sent())

	// The slow sends held frames unanswered until the kill; the replay
	// needs none of them.
	w.sim.SetLatency(sim.Latency{})
	p = startBot(t, bin, w.env)
	w.waitSent(t, frames)
	testkit.WaitFor(t, "the journal empty", func() bool {
		j, _ := p.health(t)["journal"].(map[string]any)
		return j != nil && j["pending"] == float64(0)
	})
	j := p.health(t)["journal"].(map[string]any)
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	sent := w.sim.Sent()
	per := botest.RepliesTo(sent)
	for i := range frames {
		n := number(i)
		want := 1
		if before[n] > 0 && onDisk[n] {
			want = 2
		}
		if per[n] < 1 || per[n] > want {
			t.Errorf("%s got %d replies; want 1 (2 if in flight at the kill)", n, per[n])
		}
	}
	if j["replayed"] != float64(len(onDisk)) {
		t.Errorf("/healthz journal replayed = %v; want the %d entries on disk", j["replayed"], len(onDisk))
	}
	if len(sent) > frames+inFlight {
		t.Errorf("%d replies in all; want at most %d + %d in flight at the kill", len(sent), frames, inFlight)
	}
	hj, _ := h["journal"].(map[string]any)
	hs, _ := h["state"].(map[string]any)
	t.Logf("kill -9 with %d frames accepted, %d of them not answered: %d answered before the kill (/healthz just before: journal pending %v, state pending %v), "+
		"%d journaled on disk, %d of them in flight (answered, done not committed), %d lost; after the restart %v replayed, "+
		"%d of %d senders answered, %d replies in all (bound %d + %d)",
		frames, frames-answeredBefore, answeredBefore, hj["pending"], hs["pending"], len(onDisk), inFlight, lost, j["replayed"],
		len(per), frames, len(sent), frames, inFlight)
}

// journaledSenders opens the state file of a stopped bot and reports which
// of the senders have a frame in its journal.
func journaledSenders(t *testing.T, path string, senders int, number func(int) string) map[string]bool {
	t.Helper()
	left := botest.JournalLeft(t, path)
	on := map[string]bool{}
	for _, raw := range left {
		for i := range senders {
			if n := number(i); bytes.Contains(raw, []byte(`"`+n+`"`)) {
				if on[n] {
					t.Errorf("%s: two frames in the journal; sent one", n)
				}
				on[n] = true
			}
		}
	}
	if len(on) != len(left) {
		t.Errorf("%d journal entries, %d of them from the test's senders", len(left), len(on))
	}
	return on
}

// A replayed frame keeps its place before the same sender's later frames: A
// (!kot, a picture whose send is slow) is journaled and not answered at the
// kill; the next process replays it and the sender's B (!pomoc, a quick text
// reply) arrives as soon as the process is up. B waits for A's turn, so A's
// reply comes first, though B alone would be answered long before A.
func TestReplayKeepsOrder(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const who = "+48781000001"
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{SendPerKiB: time.Hour}}) // A's send never finishes
	w.env["COOLDOWNS"], w.env["POOL_SIZE_KOT"], w.env["POOL_SIZE_CAT"] = "kot=0s,pomoc=0s", "0", "0"
	p := startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, who, "!kot")
	p.onDisk(t, "A accepted and running", func(h map[string]any) bool {
		return h["active"] == float64(1) && journalOf(h)["pending"] == float64(1)
	})
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	if n := len(w.sim.Sent()); n != 0 {
		t.Fatalf("%d replies before the kill; want none", n)
	}
	// A's picture (tens of KiB) now takes a second or more to send, B's text
	// (under 1 KiB) a few ms.
	w.sim.SetLatency(sim.Latency{SendPerKiB: 50 * time.Millisecond})
	testkit.WaitFor(t, "the killed bot's socket gone", func() bool { return w.sim.Stats().Subscribers == 0 })
	p = startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, who, "!pomoc")
	sent := w.waitSent(t, 2)
	if len(sent[0].Attachments) != 1 || len(sent[1].Attachments) != 0 {
		t.Errorf("replies in the order picture %v, text %v; want A's picture first, then B's text",
			len(sent[0].Attachments) == 1, len(sent[1].Attachments) == 0)
	}
	if j := p.health(t)["journal"].(map[string]any); j["replayed"] != float64(1) {
		t.Errorf("/healthz journal replayed = %v; want 1", j["replayed"])
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	if n := len(w.sim.Sent()); n != 2 {
		t.Errorf("%d replies in all; want 2", n)
	}
	t.Logf("replayed A (picture) answered at %v, B (text, sent right after the start) at %v",
		sent[0].At.Format("15:04:05.000"), sent[1].At.Format("15:04:05.000"))
}

// Frames the last process left in the journal that are older than
// REPLAY_MAX_AGE at the next start are dropped, logged and counted on
// /healthz and /metrics, and not answered.
func TestReplayTooOld(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const frames = 3
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: time.Hour}}) // no send finishes
	w.env["LIMIT"] = "1"
	p := startBot(t, bin, w.env)
	w.subscribed(t)
	for i := range frames {
		w.say(t, fmt.Sprintf("+4878200%04d", i), "!pomoc")
	}
	p.onDisk(t, "every frame journaled", func(h map[string]any) bool {
		return journalOf(h)["pending"] == float64(frames)
	})
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	w.sim.SetLatency(sim.Latency{})
	testkit.WaitFor(t, "the killed bot's socket gone", func() bool { return w.sim.Stats().Subscribers == 0 })
	time.Sleep(20 * time.Millisecond)
	w.env["REPLAY_MAX_AGE"] = "10ms" // every frame the kill left is older by now
	p = startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, "+48782999999", "!pomoc") // a sentinel: once it is answered, a replay would have been too
	sent := w.waitSent(t, 1)
	testkit.WaitFor(t, "the sentinel done", func() bool {
		j, _ := p.health(t)["journal"].(map[string]any)
		return j != nil && j["pending"] == float64(0)
	})
	j := p.health(t)["journal"].(map[string]any)
	if j["dropped_old"] != float64(frames) || j["replayed"] != float64(0) || j["pending"] != float64(0) {
		t.Errorf("/healthz journal %v; want dropped_old %d, replayed 0, pending 0", j, frames)
	}
	fams := botest.ScrapeURL(t, p.url)
	if v := botest.Value(fams, "signal_bot_journal_dropped_old_total", nil); v != frames {
		t.Errorf("signal_bot_journal_dropped_old_total = %v; want %d", v, frames)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	if n := len(w.sim.Sent()); n != 1 || sent[0].Recipients[0] != "+48782999999" {
		t.Errorf("%d replies (%v); want only the sentinel's", n, botest.RepliesTo(w.sim.Sent()))
	}
	if n := strings.Count(p.stderr.String(), `msg="journaled frame too old to replay; dropped"`); n != frames {
		t.Errorf("%d log lines of a frame too old to replay; want %d", n, frames)
	}
	t.Logf("REPLAY_MAX_AGE=10ms: /healthz journal %v, /metrics dropped_old %v", j, botest.Value(fams, "signal_bot_journal_dropped_old_total", nil))
}

// The duplicate filter outlives the process: a frame answered, the bot
// stopped once its "done" is committed (SIGTERM, or kill -9), and the very
// same frame (same sender, same timestamp) delivered to the next process is
// not answered again; the same sender's next message is.
func TestDuplicateAfterRestart(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	for _, tt := range []struct {
		name string
		sig  syscall.Signal
		code int
	}{{"SIGTERM", syscall.SIGTERM, 0}, {"kill -9 after the commit", syscall.SIGKILL, -1}} {
		t.Run(tt.name, func(t *testing.T) {
			const who, other = "+48783000001", "+48783000002"
			w := newWorld(t, sim.Config{Lossless: true})
			p := startBot(t, bin, w.env)
			w.subscribed(t)
			ts, err := w.sim.Deliver(sim.Message{From: who, Text: "!pomoc"})
			if err != nil {
				t.Fatal(err)
			}
			w.waitSent(t, 1)
			p.journalSettled(t)
			if code := p.stop(t, tt.sig); code != tt.code {
				t.Fatalf("exit code %d after %v; want %d", code, tt.sig, tt.code)
			}
			testkit.WaitFor(t, "the old bot's socket gone", func() bool { return w.sim.Stats().Subscribers == 0 })
			p = startBot(t, bin, w.env)
			w.subscribed(t)
			if _, err := w.sim.Deliver(sim.Message{From: who, Text: "!pomoc", Timestamp: ts}); err != nil {
				t.Fatal(err)
			}
			w.say(t, other, "!pomoc") // after the duplicate on the same socket: once it is done, so is the duplicate
			w.waitSent(t, 2)
			p.journalSettled(t)
			if n := botest.RepliesTo(w.sim.Sent())[who]; n != 1 {
				t.Errorf("%s got %d replies to one frame delivered before and after the restart; want 1", who, n)
			}
			if !strings.Contains(p.stderr.String(), `msg="duplicate frame skipped"`) {
				t.Error(`no "duplicate frame skipped" in the new process's log`)
			}
			if _, err := w.sim.Deliver(sim.Message{From: who, Text: "!pomoc", Timestamp: ts + 1}); err != nil {
				t.Fatal(err)
			}
			w.waitSent(t, 3)
			if n := botest.RepliesTo(w.sim.Sent())[who]; n != 2 {
				t.Errorf("%s got %d replies after a new message; want 2", who, n)
			}
			if code := p.stop(t, syscall.SIGTERM); code != 0 {
				t.Errorf("exit code %d after SIGTERM; want 0", code)
			}
		})
	}
}

// A webhook POST answered 200 is on disk: with STATE_COMMIT_INTERVAL=1m (the
// longest allowed) no window ends within the test, so the only commit before
// the kill is the one the webhook hurries before it answers. The frame's send never finishes, the
// bot is killed right after the REST API got its 200, and the next process
// answers the frame from the journal.
func TestWebhookAnswerIsDurable(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const who = "+48783000001"
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: time.Hour}}) // no send finishes
	w.env["RECEIVE_MODE"], w.env["STATE_COMMIT_INTERVAL"], w.env["WEBHOOK_TOKEN"] = "webhook", "1m", botest.WebhookToken
	addr := testkit.FreeAddr(t)
	w.env["HTTP_ADDR"] = addr
	if err := w.sim.SetWebhookURL(webhookURL(addr)); err != nil {
		t.Fatal(err)
	}
	p := startBot(t, bin, w.env)
	w.say(t, who, "!pomoc")
	testkit.WaitFor(t, "the webhook POST answered", func() bool { return w.sim.Stats().WebhookPosted == 1 })
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	if n := len(w.sim.Sent()); n != 0 {
		t.Fatalf("%d replies before the kill; want none", n)
	}
	w.sim.SetLatency(sim.Latency{})
	p = startBot(t, bin, w.env)
	sent := w.waitSent(t, 1)
	if got := sent[0].Recipients; len(got) != 1 || got[0] != who {
		t.Errorf("reply to %v; want %s", got, who)
	}
	if j, _ := p.health(t)["journal"].(map[string]any); j == nil || j["replayed"] != float64(1) {
		t.Errorf("/healthz journal %v; want replayed 1", j)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	if st := w.sim.Stats(); st.WebhookFailed != 0 {
		t.Errorf("%d webhook POSTs failed; want 0", st.WebhookFailed)
	}
}
