package bot_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// The bot, the simulator (lossless, zero latency) and the fake upstreams in
// one process, the state file on disk: the benchmarks to profile the frame
// path with (go test -run '^$' -bench Burst -cpuprofile cpu.out ./pkg/bot).
// The figures to quote come from go run ./tool/soak --burst, where the bot
// is a process of its own.

// BenchmarkBurst answers bursts of 1,000 !pomoc from 100 senders at LIMIT=32.
func BenchmarkBurst(b *testing.B) {
	const n, senders = 1000, 100
	h := botest.New(b, sim.Config{Lossless: true}, map[string]string{"LIMIT": "32", "QUEUE_DEPTH": "2000"})
	h.Start()
	body, _ := json.Marshal(map[string]any{"n": n, "text": "!pomoc", "senders": senders})
	var took time.Duration
	for b.Loop() {
		before := h.Sim.Stats().Sends
		took += burst(b, h, body, func(st sim.Stats) (int64, error) { return st.Sends - before, nil }, n)
	}
	b.ReportMetric(float64(n*b.N)/took.Seconds(), "replies/s")
}

// BenchmarkClosedLoop sends !pomoc through /_selftest one at a time and
// reports own_ms at p50 and p95 beside the time per request.
func BenchmarkClosedLoop(b *testing.B) {
	h := botest.New(b, sim.Config{Lossless: true}, map[string]string{"SELFTEST_RATE": "0"})
	h.Start()
	var own []float64
	for b.Loop() {
		own = append(own, h.Selftest("!pomoc").OwnMS)
	}
	sort.Float64s(own)
	b.ReportMetric(own[len(own)/2], "own_ms_p50")
	b.ReportMetric(own[len(own)*95/100], "own_ms_p95")
}

// BenchmarkWebhookIntake has the simulator POST bursts of 500 frames to the
// webhook one after another, as the REST API does, and reports the POSTs
// answered per second: with the journal on every 200 waits for its commit
// (an fsync, hurried), with JOURNAL_MAX_FRAMES=0 it does not. The bot's
// limits are off (botest.LimitsOff), so only the intake is measured.
func BenchmarkWebhookIntake(b *testing.B) {
	for _, journal := range []string{"on", "off"} {
		b.Run("journal="+journal, func(b *testing.B) {
			const n = 500
			env := map[string]string{"LIMIT": "32", "QUEUE_DEPTH": "2000"}
			if journal == "off" {
				env["JOURNAL_MAX_FRAMES"] = "0"
			}
			h := botest.New(b, sim.Config{Lossless: true}, env)
			h.StartWebhook()
			body, _ := json.Marshal(map[string]any{"n": n, "text": "!pomoc", "senders": 100})
			var (
				took  time.Duration
				sends int64
			)
			for b.Loop() {
				before := h.Sim.Stats().WebhookPosted
				took += burst(b, h, body, func(st sim.Stats) (int64, error) {
					if st.WebhookFailed > 0 {
						return 0, fmt.Errorf("%d POSTs failed", st.WebhookFailed)
					}
					return st.WebhookPosted - before, nil
				}, n)
				deadline := time.Now().Add(time.Minute)
				b.StopTimer() // the replies, before the next burst: the FIFO starts empty each time
				for h.Sim.Stats().Sends < sends+n {
					if time.Now().After(deadline) {
						b.Fatalf("%d of %d replies after a minute", h.Sim.Stats().Sends-sends, n)
					}
					time.Sleep(time.Millisecond)
				}
				sends += n
				b.StartTimer()
			}
			b.ReportMetric(float64(n*b.N)/took.Seconds(), "posts/s")
		})
	}
}

// burst has the simulator deliver body's burst and returns the time until
// count, read from the simulator's figures, reaches n (a minute at most).
func burst(b *testing.B, h *botest.Harness, body []byte, count func(sim.Stats) (int64, error), n int64) time.Duration {
	b.Helper()
	start := time.Now()
	res, err := http.Post(h.Env["SIGNAL_API_URL"]+"/_sim/burst", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	deadline := start.Add(time.Minute)
	for {
		got, err := count(h.Sim.Stats())
		switch {
		case err != nil:
			b.Fatalf("burst: %v", err)
		case got >= n:
			return time.Since(start)
		case time.Now().After(deadline):
			b.Fatalf("burst: %d of %d after a minute", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}
