package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// A journaled frame whose handling the process dies in (here: its send never
// returns, and the bot is killed with -9) is replayed at the next start and
// the one after, its attempt on disk before it runs each time; at the third
// start, REPLAY_MAX_ATTEMPTS=2 replays later, it is dropped as poison: logged
// without identity, counted on /healthz and /metrics, and the other frames
// are answered.
func TestPoisonFrameDropped(t *testing.T) {
	t.Parallel()
	bin := botBinary(t)
	const poisoner, sentinel = "+48783000001", "+48783999999"
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: time.Hour}}) // no send finishes
	w.env["LIMIT"] = "1"
	p := startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, poisoner, "!pomoc")
	p.onDisk(t, "the frame journaled", func(h map[string]any) bool {
		return journalOf(h)["pending"] == float64(1)
	})
	for start := 1; start <= 2; start++ {
		w.killAndWait(t, p)
		p = startBot(t, bin, w.env)
		p.onDisk(t, "the frame replayed, its attempt counted", func(h map[string]any) bool {
			j := journalOf(h)
			return j["replayed"] == float64(1) && j["pending"] == float64(1)
		})
	}
	w.killAndWait(t, p)
	w.sim.SetLatency(sim.Latency{})
	p = startBot(t, bin, w.env)
	w.subscribed(t)
	w.say(t, sentinel, "!pomoc")
	sent := w.waitSent(t, 1)
	testkit.WaitFor(t, "the sentinel done", func() bool {
		j, _ := p.health(t)["journal"].(map[string]any)
		return j != nil && j["pending"] == float64(0)
	})
	j := p.health(t)["journal"].(map[string]any)
	if j["poison"] != float64(1) || j["replayed"] != float64(0) {
		t.Errorf("/healthz journal %v; want poison 1, replayed 0", j)
	}
	if v := botest.Value(botest.ScrapeURL(t, p.url), "signal_bot_journal_poison_total", nil); v != 1 {
		t.Errorf("signal_bot_journal_poison_total = %v; want 1", v)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after SIGTERM; want 0", code)
	}
	if n := len(w.sim.Sent()); n != 1 || sent[0].Recipients[0] != sentinel {
		t.Errorf("%d replies (%v); want only the sentinel's", n, botest.RepliesTo(w.sim.Sent()))
	}
	logs := p.stderr.String()
	if n := strings.Count(logs, `msg="poison frame`); n != 1 || !strings.Contains(logs, "attempts=2") || strings.Contains(logs, poisoner) {
		t.Errorf("%d poison lines (want 1, with attempts=2 and without the sender); logs:\n%.3000s", n, logs)
	}
}
