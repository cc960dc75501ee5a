package app_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// The bot, the simulator (lossless, zero latency) and the fake upstreams in
// one process, the state file on disk: the benchmarks to profile the frame
// path with (go test -run '^$' -bench Burst -cpuprofile cpu.out ./pkg/app).
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
		start := time.Now()
		res, err := http.Post(h.Env["SIGNAL_API_URL"]+"/_sim/burst", "application/json", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		deadline := start.Add(time.Minute)
		for h.Sim.Stats().Sends-before < n {
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d replies after a minute", h.Sim.Stats().Sends-before, n)
			}
			time.Sleep(time.Millisecond)
		}
		took += time.Since(start)
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
				start := time.Now()
				res, err := http.Post(h.Env["SIGNAL_API_URL"]+"/_sim/burst", "application/json", bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				res.Body.Close()
				deadline := start.Add(time.Minute)
				for h.Sim.Stats().WebhookPosted-before < n {
					if time.Now().After(deadline) || h.Sim.Stats().WebhookFailed > 0 {
						b.Fatalf("%d of %d POSTs answered, %d failed", h.Sim.Stats().WebhookPosted-before, n, h.Sim.Stats().WebhookFailed)
					}
					time.Sleep(time.Millisecond)
				}
				took += time.Since(start)
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
