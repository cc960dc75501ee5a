package main

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/telemetry"
)

var blockLineRE = regexp.MustCompile(`(?m)^command=(\S+) (.*) trace_id=([0-9a-f]{32})$`)

// A !pomoc through /_selftest, exported to the real Jaeger: tool/trace prints
// its waterfall, every span of otel/SPANS.md in it, and a timing block within
// 5 µs of the one /_selftest answered (Jaeger's API v3 keeps nanoseconds, so
// it is the same block).
func TestTraceFromJaeger(t *testing.T) {
	otlp, query := testkit.JaegerURLs(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
	t.Setenv("OTEL_TRACES_SAMPLER", "always_on")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	t.Setenv("OTEL_SERVICE_NAME", "signal-bot-tool-trace-test")
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	want := h.Selftest("!pomoc")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out strings.Builder
	if err := run(ctx, []string{"--jaeger", query, "--wait", "20s", want.TraceID}, func(string) string { return "" }, &out); err != nil {
		t.Fatalf("trace %s: %v\n%s", want.TraceID, err, out.String())
	}
	t.Logf("tool/trace %s:\n%s", want.TraceID, out.String())
	for _, name := range []string{telemetry.SpanFrame, telemetry.SpanQueue, telemetry.SpanDispatch, telemetry.SpanSenderTurn, "handler pomoc", "POST /v2/send [send] 201"} {
		if !strings.Contains(out.String(), "\n"+name+" ") && !regexp.MustCompile(`(?m)^ +`+regexp.QuoteMeta(name)+` `).MatchString(out.String()) {
			t.Errorf("the waterfall has no %q row", name)
		}
	}
	m := blockLineRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no block line in the output")
	}
	if m[1] != want.Command || m[3] != want.TraceID {
		t.Errorf("block line for %s of %s; want %s of %s", m[1], m[3], want.Command, want.TraceID)
	}
	got := map[string]float64{}
	for _, kv := range strings.Fields(m[2]) {
		k, v, _ := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("block line field %q: %v", kv, err)
		}
		got[k] = f
	}
	var worst float64
	for _, f := range []struct {
		name string
		want float64
	}{
		{"queue_ms", want.QueueMS}, {"dispatch_ms", want.DispatchMS}, {"handler_ms", want.HandlerMS},
		{"send_ms", want.SendMS}, {"upstream_ms", want.UpstreamMS}, {"send_wait_ms", want.SendWaitMS}, {"own_ms", want.OwnMS}, {"round_trip_ms", want.RoundTripMS},
	} {
		v, ok := got[f.name]
		if !ok {
			t.Errorf("%s missing from the block line", f.name)
			continue
		}
		d := math.Abs(v - f.want)
		worst = max(worst, d)
		if d > 0.005 {
			t.Errorf("%s: tool/trace %.3f, /_selftest %.3f: %.0f µs apart; want at most 5", f.name, v, f.want, d*1000)
		}
	}
	t.Logf("largest difference between tool/trace's block and /_selftest's: %.0f µs", worst*1000)
}
