package metrics

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"signal-bot/pkg/telemetry"
)

// dropTime removes the time, which differs between runs.
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

func TestServed(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{ReplaceAttr: dropTime}))
	src := Sources{
		Pipeline:   func() (int64, int64, int, int) { return 0, 0, 0, 0 },
		Evicted:    func() uint64 { return 0 },
		Connected:  func() bool { return true },
		Reconnects: func() int64 { return 0 },
	}
	var after []string
	m, err := New(src, log, func(b telemetry.Block) { after = append(after, b.Command) })
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	blocks := []telemetry.Block{
		{Command: "pomoc", Outcome: "served", TraceID: "0af7651916cd43dd8448eb211c80319c", QueueMS: 0.021, OwnMS: 0.2, RoundTripMS: 1.5, Sampled: true},
		{Command: "pomoc", Outcome: "served", TraceID: "1af7651916cd43dd8448eb211c80319c", OwnMS: 0.3, RoundTripMS: 2},
		{Command: "pomoc", Outcome: "cooldown", TraceID: "2af7", OwnMS: 0.1, RoundTripMS: 0.4},
		{Command: "kot", Outcome: "served", TraceID: "3af7", OwnMS: 1, RoundTripMS: 300, Scheduled: true},
		{Outcome: "ignored", TraceID: "4af7"}, // no command: neither counted nor logged
	}
	for _, b := range blocks {
		m.Served(b)
	}
	wantLogs := `level=INFO msg=served command=pomoc queue_ms=0.021 dispatch_ms=0 handler_ms=0 send_ms=0 upstream_ms=0 send_wait_ms=0 own_ms=0.2 round_trip_ms=1.5 trace_id=0af7651916cd43dd8448eb211c80319c
level=INFO msg=served command=pomoc queue_ms=0 dispatch_ms=0 handler_ms=0 send_ms=0 upstream_ms=0 send_wait_ms=0 own_ms=0.3 round_trip_ms=2 trace_id=1af7651916cd43dd8448eb211c80319c
level=INFO msg=served command=pomoc queue_ms=0 dispatch_ms=0 handler_ms=0 send_ms=0 upstream_ms=0 send_wait_ms=0 own_ms=0.1 round_trip_ms=0.4 trace_id=2af7
level=INFO msg=served command=kot queue_ms=0 dispatch_ms=0 handler_ms=0 send_ms=0 upstream_ms=0 send_wait_ms=0 own_ms=1 round_trip_ms=300 trace_id=3af7 scheduled=true
`
	if logs.String() != wantLogs {
		t.Errorf("served lines:\n%s\nwant:\n%s", logs.String(), wantLogs)
	}
	if got := strings.Join(after, ","); got != "pomoc,pomoc,pomoc,kot" {
		t.Errorf("after got %q; want pomoc,pomoc,pomoc,kot", got)
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`signal_bot_replies_total{command="pomoc",outcome="served"} 2`,
		`signal_bot_replies_total{command="pomoc",outcome="cooldown"} 1`,
		`signal_bot_replies_total{command="kot",outcome="served"} 1`,
		`signal_bot_own_ms_count{command="pomoc"} 3`,
		`signal_bot_round_trip_ms_count{command="kot"} 1`,
		`signal_bot_round_trip_ms_sum{command="pomoc"} 3.9`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s:\n%s", want, body)
		}
	}
	if strings.Contains(string(body), `outcome="ignored"`) {
		t.Errorf("a block without a command was counted:\n%s", body)
	}
}

func TestServedCacheBound(t *testing.T) {
	var c servedCache
	for i := range maxServedSets + 10 {
		c.get(strings.Repeat("x", i), "served")
	}
	if n := len(*c.sets.Load()); n != maxServedSets {
		t.Errorf("cached %d sets; want at most %d", n, maxServedSets)
	}
	a, b := c.get("x", "served"), c.get("x", "served")
	if &a.replies[0] != &b.replies[0] || &a.command[0] != &b.command[0] {
		t.Errorf("a cached pair got new options: %v, %v", a, b)
	}
}
