package e2e

import (
	"bytes"
	"fmt"
	"strconv"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// SIGTERM while 40 slow sends are queued behind LIMIT=4: every accepted frame
// is answered, nothing is cut off, every frame's spans are flushed, exit 0,
// and every use is in the state file. The commit interval is one the test
// never reaches, so the uses are there because the shutdown committed them.
func TestSigtermDrains(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const frames = 40
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 100 * time.Millisecond}})
	w.env["LIMIT"], w.env["SHUTDOWN_TIMEOUT"], w.env["STATE_COMMIT_INTERVAL"] = "4", "30s", "1m"
	p := startBot(t, bin, w.env)
	number := func(i int) string { return fmt.Sprintf("+4873000%04d", i) }
	for i := range frames {
		w.say(t, number(i), "!pomoc")
	}
	testkit.WaitFor(t, "every frame accepted", func() bool { return p.health(t)["accepted"] == float64(frames) })
	if h := p.health(t); h["queue_depth"] == float64(0) {
		t.Fatalf("the queue drained before SIGTERM (%v); the test would prove nothing", h)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d; want 0\n%s", code, p.stderr)
	}
	if n := len(w.sim.Sent()); n != frames {
		t.Errorf("%d replies to %d accepted frames; want all", n, frames)
	}
	if n := p.cutOff(); n != -1 {
		t.Errorf("%d frames cut off; want none", n)
	}
	reqs, got := w.spans.outcomes()
	if got["served"] != frames || total(got) != frames {
		t.Errorf("exported frames by outcome %v; want %d served", got, frames)
	}
	uses, chat := botest.ReadUses(t, w.env["STATE_PATH"], "pomoc", frames, number)
	for i := range frames {
		if n := uses[number(i)]; n != 1 {
			t.Errorf("%s: %d uses of !pomoc in the state file; want 1", number(i), n)
		}
	}
	if chat != frames {
		t.Errorf("the chat's !pomoc count in the state file = %d; want %d", chat, frames)
	}
	t.Logf("SIGTERM with the queue full: %d replies, exit 0, %d frame traces flushed in %d OTLP requests", frames, total(got), reqs)
}

// SIGTERM with sends that cannot finish within SHUTDOWN_TIMEOUT: the process
// still exits 0, logs the count it cut off, and flushes every frame's spans.
func TestSigtermCuts(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const quick, stuck, limit = 10, 30, 4
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["LIMIT"], w.env["SHUTDOWN_TIMEOUT"] = strconv.Itoa(limit), "300ms"
	p := startBot(t, bin, w.env)
	for i := range quick {
		w.say(t, fmt.Sprintf("+4874000%04d", i), "!pomoc")
	}
	w.waitSent(t, quick)
	w.sim.SetLatency(sim.Latency{Send: time.Hour}) // these sends never finish
	for i := range stuck {
		w.say(t, fmt.Sprintf("+4874100%04d", i), "!pomoc")
	}
	testkit.WaitFor(t, "every frame accepted and the slots full", func() bool {
		h := p.health(t)
		return h["accepted"] == float64(quick+stuck) && h["active"] == float64(limit)
	})
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d; want 0\n%s", code, p.stderr)
	}
	if n := len(w.sim.Sent()); n != quick {
		t.Errorf("%d replies; want the %d quick ones", n, quick)
	}
	if n := p.cutOff(); n != stuck {
		t.Errorf(`"frames cut off at shutdown" count = %d; want %d`, n, stuck)
	}
	_, got := w.spans.outcomes()
	if got["served"] != quick || total(got) != quick+stuck {
		t.Errorf("exported frames by outcome %v; want %d served of %d", got, quick, quick+stuck)
	}
	t.Logf("SIGTERM past SHUTDOWN_TIMEOUT: exit 0, cut off %d, exported frames by outcome %v", p.cutOff(), got)
}

// kill -9 in the middle of a burst of !kot (cooldown 1 h) from 40 people.
// The file holds at most one use per person and a chat count that matches
// them (a consistent state, nothing invented); a picture sent within the last
// commit interval may have no use on disk. After a restart each committed use
// still holds its cooldown and an uncommitted one does not.
func TestKillKeepsUses(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const senders = 40
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 20 * time.Millisecond}})
	w.env["LIMIT"], w.env["COOLDOWNS"] = "4", "kot=1h"
	// The state file's own guarantee, alone: with the journal on, the next
	// process would replay the frames the kill left and record their uses
	// again, and the uses on disk after the restart would no longer be the
	// ones this process committed.
	w.env["JOURNAL_MAX_FRAMES"] = "0"
	p := startBot(t, bin, w.env)
	number := func(i int) string { return fmt.Sprintf("+4875000%04d", i) }
	for i := range senders {
		w.say(t, number(i), "!kot")
	}
	w.waitSent(t, senders/5)
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	w.quiet(t) // a send under way at the kill may still be recorded
	pictures := botest.RepliesTo(w.sim.Sent())
	uses, chat := botest.ReadUses(t, w.env["STATE_PATH"], "kot", senders, number)
	committed, sent := 0, 0
	for i := range senders {
		n := number(i)
		committed += int(uses[n])
		sent += pictures[n]
		if uses[n] > 1 {
			t.Errorf("%s: %d uses on disk; want at most 1", n, uses[n])
		}
	}
	if chat != int64(committed) {
		t.Errorf("the chat's !kot count on disk = %d, the people's uses sum to %d; want them equal", chat, committed)
	}
	t.Logf("kill -9 after %d pictures: %d uses committed of %d frames", sent, committed, senders)
	if committed == senders {
		t.Logf("every use was committed before the kill; the restart check below still runs")
	}

	w.sim.ClearSent()
	p = startBot(t, bin, w.env)
	for i := range senders {
		w.say(t, number(i), "!kot")
	}
	got := map[string]string{}
	for _, s := range w.waitSent(t, senders) {
		kind := "cooldown"
		if len(s.Attachments) == 1 {
			kind = "picture"
		} else if !bytes.Contains([]byte(s.Message), []byte("Poczekaj jeszcze")) {
			kind = s.Message
		}
		got[s.Recipients[0]] = kind
	}
	for i := range senders {
		n := number(i)
		want := "picture"
		if uses[n] == 1 {
			want = "cooldown"
		}
		if got[n] != want {
			t.Errorf("%s (%d uses on disk) got %q after the restart; want %s", n, uses[n], got[n], want)
		}
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after the restart; want 0", code)
	}
}
