package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"time"
)

// Result is one soak's figures.
type Result struct {
	Rate     int    `json:"rate"`
	Duration string `json:"duration"`
	Senders  int    `json:"senders"`

	FramesIn   int   `json:"frames_in"`   // frames the simulator offered the bot
	Accepted   int64 `json:"accepted"`    // frames the bot took into its queue (/healthz)
	Dropped    int64 `json:"dropped"`     // frames the bot dropped with a full queue (/healthz)
	SimLost    int64 `json:"sim_lost"`    // frames the simulator lost (no socket, busy writer)
	RepliesOut int   `json:"replies_out"` // sends the simulator accepted
	Lost       int   `json:"lost"`        // frames without a reply, summed per sender
	Duplicated int   `json:"duplicated"`  // replies beyond one per frame, summed per sender

	MaxRSSBytes   int64   `json:"max_rss_bytes"`  // the bot's peak resident set (VmHWM)
	EndRSSBytes   int64   `json:"end_rss_bytes"`  // its resident set when the sending is over
	MaxGoroutines int     `json:"max_goroutines"` // the most the runtime listed at once, its own included
	TraceSamples  int     `json:"goroutine_samples"`
	CPUSeconds    float64 `json:"cpu_s"` // the bot's user + system CPU time
	Own           Stats   `json:"own_ms"`
	MaxLagMS      float64 `json:"max_lag_ms"` // how far the sender fell behind its schedule
	ExitCode      int     `json:"exit_code"`  // the bot's, after SIGTERM
}

// Stats are nearest-rank percentiles.
type Stats struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// ok tells whether the run passed: every frame answered once, a clean exit.
func (r Result) ok() bool { return r.Lost == 0 && r.Duplicated == 0 && r.ExitCode == 0 }

// statsOf computes the percentiles of v (which it sorts).
func statsOf(v []float64) Stats {
	if len(v) == 0 {
		return Stats{}
	}
	sort.Float64s(v)
	at := func(p float64) float64 { return v[max(0, int(math.Ceil(p/100*float64(len(v))))-1)] }
	return Stats{N: len(v), P50: at(50), P95: at(95), P99: at(99), Max: v[len(v)-1]}
}

// count compares frames and replies per sender.
func count(frames, replies map[string]int) (lost, duplicated int) {
	for s, n := range frames {
		if r := replies[s]; r < n {
			lost += n - r
		}
	}
	for s, r := range replies {
		if n := frames[s]; r > n {
			duplicated += r - n
		}
	}
	return lost, duplicated
}

// print writes the report for people, or JSON.
func (r Result) print(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	d, _ := time.ParseDuration(r.Duration)
	_, err := fmt.Fprintf(w, `soak: %s at %d frames/s from %d senders
frames in        %d (accepted by the bot %d, dropped by it %d, lost by the simulator %d)
replies out      %d
lost             %d
duplicated       %d
max RSS          %.1f MiB (%.1f MiB at the end)
max goroutines   %d (runtime's own included; %d samples)
own_ms           p95 %.3f (p50 %.3f, p99 %.3f, max %.3f; n=%d)
bot CPU          %.1f s (%.0f%% of one core)
sender lag       max %.1f ms behind schedule
bot exit         %d after SIGTERM
`, r.Duration, r.Rate, r.Senders,
		r.FramesIn, r.Accepted, r.Dropped, r.SimLost, r.RepliesOut, r.Lost, r.Duplicated,
		float64(r.MaxRSSBytes)/(1<<20), float64(r.EndRSSBytes)/(1<<20), r.MaxGoroutines, r.TraceSamples,
		r.Own.P95, r.Own.P50, r.Own.P99, r.Own.Max, r.Own.N,
		r.CPUSeconds, 100*r.CPUSeconds/max(d.Seconds(), 1), r.MaxLagMS, r.ExitCode)
	return err
}
