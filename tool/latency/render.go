package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"signal-bot/tool/latency/internal/stats"
)

// writeJSON prints the report as one JSON document.
func writeJSON(w io.Writer, r report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}

// writeText prints the report for people.
func writeText(w io.Writer, r report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s to %s at %s: %s, %s\n", r.Text, r.Group, r.URL, r.describe(), r.elapsed().Round(time.Millisecond))
	fmt.Fprintf(&b, "requests: %d planned, %d sent, %d ok, %d failed", r.Planned, r.Sent, r.OK, r.Failed)
	if r.Interrupted {
		b.WriteString(" (interrupted)")
	}
	b.WriteString("\n")
	if r.Throttled > 0 {
		fmt.Fprintf(&b, "  %d refusals by the bot's rate limit (SELFTEST_RATE), each request sent again after a pause\n", r.Throttled)
	}
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "  %-10s ×%-6d %s\n", f.Status, f.Count, f.Example)
	}
	fmt.Fprintf(&b, "\n%-14s %6s %10s %10s %10s %10s %10s %10s\n", "field (ms)", "n", "min", "p50", "p90", "p95", "p99", "max")
	for _, row := range r.Fields.rows() {
		if row.N == 0 {
			fmt.Fprintf(&b, "%-14s %6d %10s\n", row.name, 0, "-")
			continue
		}
		fmt.Fprintf(&b, "%-14s %6d %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n",
			row.name, row.N, row.Min, row.P50, row.P90, row.P95, row.P99, row.Max)
	}
	b.WriteString(r.paceLines())
	if len(r.Histogram) > 0 {
		b.WriteString("\nown_ms\n")
		if err := stats.WriteHistogram(&b, r.Histogram, 40); err != nil {
			return err
		}
	}
	fmt.Fprintf(&b, "\n%s\n", r.Budget.line())
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// paceLines says how the run was paced, and how much of own_ms was the
// replies' wait for the send budget: the bot's deliberate hold, not its code.
func (r report) paceLines() string {
	var b strings.Builder
	if r.Waited > 0 {
		w, rest := r.Fields.SendWaitMS, r.Fields.OwnLessWaitMS
		fmt.Fprintf(&b, "\nsend budget wait: %d of %d replies waited in the bot for the send budget (send_wait_ms p95 %.3f, max %.3f);\n"+
			"  own_ms counts that wait; without it own_ms p95 is %.3f ms\n", r.Waited, r.OK, w.P95, w.Max, rest.P95)
	}
	switch p := r.Pace; {
	case p.Mode == paceOn && p.Held > 0:
		fmt.Fprintf(&b, "\npaced: %d requests held %s in all for the send budget (%d per %gs), so no reply waited for it\n",
			p.Held, (time.Duration(p.HeldS * float64(time.Second))).Round(time.Millisecond), p.ChatBurst, p.ChatPeriodS)
	case p.Mode == paceOn:
		fmt.Fprintf(&b, "\npaced: the run fit the send budget (%d per %gs) without a hold\n", p.ChatBurst, p.ChatPeriodS)
	}
	return b.String()
}

// describe names the mode: "20 × one at a time" or "200/s for 30s".
func (r report) describe() string {
	if r.Mode == "open" {
		return fmt.Sprintf("open loop, %g/s for %gs (at most %d in flight)", r.RatePerS, r.DurationS, r.Inflight)
	}
	return fmt.Sprintf("closed loop, %d × one at a time", r.Times)
}

// line is the budget verdict: "budget: own_ms p95 0.412 ms ≤ 100 ms  PASS".
func (b budget) line() string {
	if b.ValueMS == nil {
		return fmt.Sprintf("budget: %s %s ≤ %g ms: no reply to measure  FAIL", b.Field, b.Quantile, b.BudgetMS)
	}
	verdict, rel := "PASS", "≤"
	if !b.Pass {
		verdict, rel = "FAIL", ">"
	}
	return fmt.Sprintf("budget: %s %s %.3f ms %s %g ms  %s", b.Field, b.Quantile, *b.ValueMS, rel, b.BudgetMS, verdict)
}
