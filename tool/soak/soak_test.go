package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Both modes against one build of the bot.
func TestShortRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped under -short (testing.Short): builds and runs the signal-bot binary")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	bin, err := buildBot(ctx, t.TempDir(), raceEnabled)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("soak", func(t *testing.T) { testShortSoak(ctx, t, bin) })
	t.Run("burst", func(t *testing.T) { testShortBurst(ctx, t, bin) })
}

// A short soak: every frame is answered exactly once and the bot exits 0.
func testShortSoak(ctx context.Context, t *testing.T, bin string) {
	args := []string{"--duration", "2s", "--rate", "125", "--senders", "10", "--json", "--bot", bin}
	var out, errs bytes.Buffer
	code := run(ctx, args, &out, &errs)
	var r Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("exit %d, output %q: %v\n%s", code, out.String(), err, errs.String())
	}
	t.Logf("%+v", r)
	if code != 0 || r.FramesIn != 250 || r.RepliesOut != 250 || r.Lost != 0 || r.Duplicated != 0 || r.ExitCode != 0 {
		t.Errorf("exit %d: frames in %d, replies %d, lost %d, duplicated %d, bot exit %d; want 250 answered once, exit 0\n%s",
			code, r.FramesIn, r.RepliesOut, r.Lost, r.Duplicated, r.ExitCode, errs.String())
	}
	if r.Own.N != 250 || r.MaxRSSBytes == 0 || r.MaxGoroutines == 0 {
		t.Errorf("own_ms n %d, max RSS %d, max goroutines %d; want every served line and both peaks measured", r.Own.N, r.MaxRSSBytes, r.MaxGoroutines)
	}
}

// A short loopback-limit run: both rates measured in each round, every
// burst frame answered, the bot exits 0.
func testShortBurst(ctx context.Context, t *testing.T, bin string) {
	var out, errs bytes.Buffer
	code := run(ctx, []string{"--burst", "300", "--rounds", "2", "--senders", "30", "--limit", "8", "--json", "--bot", bin}, &out, &errs)
	var r BurstResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("exit %d, output %q: %v\n%s", code, out.String(), err, errs.String())
	}
	t.Logf("%+v", r)
	if !strings.HasPrefix(r.Safety, "off: ") {
		t.Errorf("safety = %q; want the limits off by default, named", r.Safety)
	}
	if code != 0 || len(r.Rounds) != 2 || r.Lost != 0 || r.Dropped != 0 || r.ExitCode != 0 || r.FramesPerSender != 10 {
		t.Errorf("exit %d: %d rounds, lost %d, dropped %d, bot exit %d, %d frames per sender; want 2 rounds, nothing lost, exit 0, 10 each\n%s",
			code, len(r.Rounds), r.Lost, r.Dropped, r.ExitCode, r.FramesPerSender, errs.String())
	}
	var cpu float64
	for i, rd := range r.Rounds {
		if rd.TrivialPerS <= 0 || rd.BotPerS <= 0 || rd.Replies != 300 || rd.Ratio != rd.BotPerS/rd.TrivialPerS {
			t.Errorf("round %d = %+v; want both rates, 300 replies and their ratio", i+1, rd)
		}
		if rd.BotCPUPerReplyUS < 0 {
			t.Errorf("round %d: bot CPU %.1f µs a reply; want none negative", i+1, rd.BotCPUPerReplyUS)
		}
		cpu += rd.BotCPUPerReplyUS
	}
	// 600 replies take tens of milliseconds of the bot's CPU, several of
	// /proc's 10 ms ticks: a sum of zero means the bursts' CPU was not read.
	if cpu <= 0 || r.MedianCPUPerReplyUS < 0 || r.Cores < 1 {
		t.Errorf("bot CPU per reply %v (median %.1f), %d cores; want the bursts' CPU read and the cores counted", cpu, r.MedianCPUPerReplyUS, r.Cores)
	}
}

func TestParseArgsBounds(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr bool
	}{
		{nil, false},
		{[]string{"--rate", "0"}, true},
		{[]string{"--rate", "1001"}, true},
		{[]string{"--duration", "3h"}, true},
		{[]string{"--duration", "500ms"}, true},
		{[]string{"--senders", "0"}, true},
		{[]string{"--drain", "10m"}, true},
		{[]string{"extra"}, true},
		{[]string{"--rate", "1", "--duration", "1s", "--senders", "1"}, false},
		{[]string{"--burst", "5000"}, false},
		{[]string{"--burst", "200000"}, true},
		{[]string{"--burst", "100", "--limit", "0"}, true},
		{[]string{"--burst", "100", "--rounds", "21"}, true},
		{[]string{"--burst", "100", "--workers", "0"}, true},
		{[]string{"--burst", "100", "--safety", "maybe"}, true},
		{[]string{"--burst", "100", "--safety", "on"}, false},
	}
	for _, tt := range tests {
		_, err := parseArgs(tt.args, &bytes.Buffer{})
		if (err != nil) != tt.wantErr {
			t.Errorf("parseArgs(%q) error = %v; want error %v", tt.args, err, tt.wantErr)
		}
	}
}

func TestCountAndStats(t *testing.T) {
	lost, dup := count(map[string]int{"a": 3, "b": 2, "c": 1}, map[string]int{"a": 3, "b": 3, "d": 1})
	if lost != 1 || dup != 2 {
		t.Errorf("count() = lost %d, duplicated %d; want 1, 2", lost, dup)
	}
	v := make([]float64, 100)
	for i := range v {
		v[i] = float64(100 - i)
	}
	if s := statsOf(v); s.N != 100 || s.P50 != 50 || s.P95 != 95 || s.P99 != 99 || s.Max != 100 {
		t.Errorf("statsOf(1..100) = %+v; want nearest-rank 50, 95, 99, 100", s)
	}
}

// The scheduler trace is counted per sample, dead goroutines left out, and
// a log line that lands inside a trace line still counts.
func TestBotLogParsesTraceAndServedLines(t *testing.T) {
	l := newBotLog()
	for _, s := range []string{
		`time=x level=INFO msg="signal-bot running" version=dev http=http://127.0.0.1:9 limit=8`,
		"SCHED 1000ms: gomaxprocs=2 idleprocs=2 threads=5",
		"  P0: status=0 schedtick=1",
		"  M0: p=nil curg=nil",
		"  G1: status=4(select) m=nil lockedm=nil",
		"  G2: status=6() m=nil lockedm=nil",
		"  G3: status=4(time=x level=INFO msg=served command=pomoc own_ms=1.5 round_trip_ms=2",
		"select) m=nil lockedm=nil",
		"SCHED 2000ms: gomaxprocs=2 idleprocs=2 threads=5",
		"  P1: status=1 schedtick=7 syscalltick=3 m=time=x level=INFO msg=served command=pomoc own_ms=3 round_trip_ms=4",
		"0 runqsize=0 gfreecnt=0 timerslen=1",
		"SCHED 3000ms: gomaxprocs=2time=x level=INFO msg=served command=pomoc own_ms=4 round_trip_ms=5",
		" idleprocs=2 threads=5",
		"  G1: status=4(select) m=nil lockedm=nil",
		`time=x level=INFO msg=served command=ja queue_ms=0.1 own_ms=0.25 round_trip_ms=1`,
	} {
		l.line(s)
	}
	if got := <-l.urlc; got != "http://127.0.0.1:9" {
		t.Errorf("url = %q", got)
	}
	if g, n := l.goroutines(); g != 2 || n != 3 {
		t.Errorf("goroutines = %d in %d samples; want 2 in 3", g, n)
	}
	if own := l.ownMS(); !slices.Equal(own, []float64{1.5, 3, 4, 0.25}) {
		t.Errorf("own_ms = %v; want [1.5 3 4 0.25]", own)
	}
}
