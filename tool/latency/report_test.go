package main

import (
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/telemetry"
)

func TestNewReportBudget(t *testing.T) {
	o := options{group: "testbot", text: "!pomoc", times: 3, budgetMS: 2}
	tests := []struct {
		name     string
		own      []float64
		wantPass bool
		wantLine string
	}{
		{"within", []float64{1, 1.5, 2}, true, "p95 2.000 ms ≤ 2 ms  PASS"},
		{"over", []float64{1, 1.5, 2.5}, false, "p95 2.500 ms > 2 ms  FAIL"},
		{"no reply", nil, false, "no reply to measure  FAIL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := snapshot{sent: 3, nFailed: 3 - len(tt.own)}
			for _, v := range tt.own {
				s.ok = append(s.ok, timing{Block: telemetry.Block{OwnMS: v}})
			}
			r := newReport(o, s, false)
			if got := r.Budget.line(); r.Budget.Pass != tt.wantPass || !strings.Contains(got, tt.wantLine) {
				t.Errorf("budget = %v, %q; want %v, %q", r.Budget.Pass, got, tt.wantPass, tt.wantLine)
			}
		})
	}
}

func TestWriteTextShowsFailures(t *testing.T) {
	s := snapshot{sent: 4, elapsed: time.Second, ok: []timing{{Block: telemetry.Block{OwnMS: 1}}},
		failures: []failure{{Status: "503", Count: 2, Example: "intake full"}, {Status: labelSkipped, Count: 1, Example: skippedExample}}, nFailed: 3}
	var b strings.Builder
	if err := writeText(&b, newReport(options{group: "testbot", text: "!pomoc", times: 4, budgetMS: 100}, s, false)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1 ok, 3 failed", "503        ×2      intake full", "skipped    ×1", "PASS"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestUnreachable(t *testing.T) {
	tests := []struct {
		name string
		s    snapshot
		want bool
	}{
		{"nothing answered", snapshot{failures: []failure{{Status: labelNoAnswer, Count: 3}}}, true},
		{"some replies", snapshot{ok: []timing{{}}, failures: []failure{{Status: labelNoAnswer, Count: 3}}}, false},
		{"the bot answered with errors", snapshot{failures: []failure{{Status: "503", Count: 3}}}, false},
		{"nothing sent", snapshot{}, false},
	}
	for _, tt := range tests {
		if got := tt.s.unreachable(); got != tt.want {
			t.Errorf("%s: unreachable() = %v; want %v", tt.name, got, tt.want)
		}
	}
}
