package e2e

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"sort"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/telemetry"
)

// Selftests of !pomoc and !cat, exported to a real Jaeger: each trace comes
// back with the span tree of otel/SPANS.md, and own_ms recomputed from the
// span times Jaeger stored equals the block /_selftest answered.
func TestSpansInJaegerMatchTheBlock(t *testing.T) {
	otlp, query := testkit.JaegerURLs(t)
	t.Cleanup(http.DefaultClient.CloseIdleConnections) // the keep-alive to Jaeger's query API
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
	t.Setenv("OTEL_TRACES_SAMPLER", "always_on")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	t.Setenv("OTEL_SERVICE_NAME", "signal-bot-test")
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COOLDOWNS": "cat=0s,kot=0s"})
	h.Start()
	tests := []struct {
		text         string
		wantCommand  string
		wantUpstream int // upstream HTTP spans: The Cat API search + download
	}{
		{"!pomoc", "pomoc", 0},
		{"!cat", "cat", 2},
	}
	for _, tt := range tests {
		t.Run(tt.wantCommand, func(t *testing.T) {
			b := h.Selftest(tt.text)
			if b.Command != tt.wantCommand {
				t.Fatalf("command = %q; want %q", b.Command, tt.wantCommand)
			}
			spans := fetchTrace(t, query, b.TraceID, 6+tt.wantUpstream)
			checkTree(t, spans, tt.wantUpstream)
			want := recompute(spans)
			for _, f := range []struct {
				name      string
				got, want float64
			}{
				{"queue_ms", b.QueueMS, want.QueueMS}, {"dispatch_ms", b.DispatchMS, want.DispatchMS},
				{"handler_ms", b.HandlerMS, want.HandlerMS}, {"send_ms", b.SendMS, want.SendMS},
				{"upstream_ms", b.UpstreamMS, want.UpstreamMS}, {"own_ms", b.OwnMS, want.OwnMS},
			} {
				// Jaeger keeps whole microseconds per span; allow that rounding for each span summed.
				if math.Abs(f.got-f.want) > 0.006 {
					t.Errorf("%s: block %.3f, from Jaeger's spans %.3f", f.name, f.got, f.want)
				}
			}
			t.Logf("%s: own_ms %.3f (block) vs %.3f (Jaeger), trace %s", tt.text, b.OwnMS, want.OwnMS, b.TraceID)
		})
	}
}

// jspan is a span of Jaeger's legacy JSON API (times in µs).
type jspan struct {
	SpanID        string `json:"spanID"`
	ProcessID     string `json:"processID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime int64 `json:"startTime"`
	Duration  int64 `json:"duration"`
	Tags      []struct {
		Key   string `json:"key"`
		Value any    `json:"value"`
	} `json:"tags"`
}

func (s jspan) parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

func (s jspan) tag(k string) any {
	for _, tg := range s.Tags {
		if tg.Key == k {
			return tg.Value
		}
	}
	return nil
}

// fetchTrace polls Jaeger until the trace has n spans (30 s at most).
func fetchTrace(t *testing.T, query, id string, n int) []jspan {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var last int
	for ctx.Err() == nil {
		var doc struct {
			Data []struct {
				Spans []jspan `json:"spans"`
			} `json:"data"`
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, query+"/api/traces/"+id, nil)
		if res, err := http.DefaultClient.Do(req); err == nil {
			if res.StatusCode == http.StatusOK && json.NewDecoder(res.Body).Decode(&doc) == nil && len(doc.Data) == 1 {
				last = len(doc.Data[0].Spans)
				if last >= n {
					res.Body.Close()
					return doc.Data[0].Spans
				}
			}
			res.Body.Close()
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("trace %s: %d of %d spans in Jaeger after 30 s", id, last, n)
	return nil
}

// checkTree checks names, parents and legs against otel/SPANS.md.
func checkTree(t *testing.T, spans []jspan, upstreams int) {
	t.Helper()
	byName := map[string]jspan{}
	byID := map[string]jspan{}
	legs := map[string]int{}
	for _, s := range spans {
		byID[s.SpanID] = s
		if leg, ok := s.tag("bot.leg").(string); ok {
			legs[leg]++
			continue
		}
		byName[s.OperationName] = s
	}
	root, ok := byName[telemetry.SpanFrame]
	if !ok || root.parent() != "" {
		t.Fatalf("no root %q span in %v", telemetry.SpanFrame, names(spans))
	}
	for child, parent := range map[string]string{
		telemetry.SpanQueue: telemetry.SpanFrame, telemetry.SpanDispatch: telemetry.SpanFrame,
		telemetry.SpanHandler: telemetry.SpanFrame, telemetry.SpanSenderTurn: telemetry.SpanQueue,
	} {
		s, ok := byName[child]
		if !ok {
			t.Errorf("span %q missing (have %v)", child, names(spans))
			continue
		}
		if got := byID[s.parent()].OperationName; got != parent {
			t.Errorf("parent of %q = %q; want %q", child, got, parent)
		}
	}
	if legs[telemetry.LegSend] != 1 || legs[telemetry.LegUpstream] != upstreams {
		t.Errorf("legs = %v; want 1 send, %d upstream", legs, upstreams)
	}
	handler := byName[telemetry.SpanHandler]
	for _, s := range spans {
		if s.tag("bot.leg") != nil && !descends(byID, s, handler.SpanID) {
			t.Errorf("leg span %q is not under the handler", s.OperationName)
		}
	}
}

func descends(byID map[string]jspan, s jspan, ancestor string) bool {
	for p := s.parent(); p != ""; p = byID[p].parent() {
		if p == ancestor {
			return true
		}
	}
	return false
}

func names(spans []jspan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.OperationName)
	}
	sort.Strings(out)
	return out
}

// recompute derives the block from Jaeger's span times, independently of
// pkg/telemetry: unions of leg intervals clipped to the handler.
func recompute(spans []jspan) telemetry.Block {
	var b telemetry.Block
	var handler jspan
	var sends, ups [][2]int64
	for _, s := range spans {
		iv := [2]int64{s.StartTime, s.StartTime + s.Duration}
		switch leg, _ := s.tag("bot.leg").(string); {
		case leg == telemetry.LegSend:
			sends = append(sends, iv)
		case leg == telemetry.LegUpstream:
			ups = append(ups, iv)
		case s.OperationName == telemetry.SpanQueue:
			b.QueueMS = float64(s.Duration) / 1000
		case s.OperationName == telemetry.SpanDispatch:
			b.DispatchMS = float64(s.Duration) / 1000
		case s.OperationName == telemetry.SpanHandler:
			b.HandlerMS, handler = float64(s.Duration)/1000, s
		}
	}
	lo, hi := handler.StartTime, handler.StartTime+handler.Duration
	send := union(clip(sends, lo, hi))
	both := union(clip(append(append([][2]int64{}, sends...), ups...), lo, hi))
	b.SendMS = float64(send) / 1000
	b.UpstreamMS = float64(both-send) / 1000
	b.OwnMS = math.Max(0, b.QueueMS+b.DispatchMS+b.HandlerMS-b.SendMS-b.UpstreamMS)
	return b
}

func clip(ivs [][2]int64, lo, hi int64) [][2]int64 {
	var out [][2]int64
	for _, iv := range ivs {
		a, z := max(iv[0], lo), min(iv[1], hi)
		if a < z {
			out = append(out, [2]int64{a, z})
		}
	}
	return out
}

func union(ivs [][2]int64) int64 {
	sort.Slice(ivs, func(i, j int) bool { return ivs[i][0] < ivs[j][0] })
	var total, end int64 = 0, math.MinInt64
	for _, iv := range ivs {
		if iv[0] > end {
			total += iv[1] - iv[0]
			end = iv[1]
		} else if iv[1] > end {
			total += iv[1] - end
			end = iv[1]
		}
	}
	return total
}

// The exemplar's trace is one Jaeger returns: scrape with the OpenMetrics
// Accept header, parse the exemplar, fetch its trace id from the real Jaeger.
func TestExemplarTraceInJaeger(t *testing.T) {
	otlp, query := testkit.JaegerURLs(t)
	t.Cleanup(http.DefaultClient.CloseIdleConnections)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
	t.Setenv("OTEL_TRACES_SAMPLER", "always_on")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	t.Setenv("OTEL_SERVICE_NAME", "signal-bot-exemplar-test")
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	b := h.Selftest("!pomoc")
	body, _ := h.ScrapeOpenMetrics(botest.OpenMetricsAccept)
	e, ok := botest.ExemplarFor(botest.Exemplars(t, body), "signal_bot_own_ms_bucket", "pomoc", b.TraceID)
	if !ok {
		t.Fatalf("no own_ms exemplar with trace_id %s in:\n%s", b.TraceID, body)
	}
	spans := fetchTrace(t, query, e.ExLabel["trace_id"], 6)
	var root jspan
	for _, s := range spans {
		if s.parent() == "" {
			root = s
		}
	}
	if root.OperationName != "frame" || root.SpanID != e.ExLabel["span_id"] {
		t.Errorf("Jaeger's root span of %s = %q %s; want frame %s, the exemplar's span_id", b.TraceID, root.OperationName, root.SpanID, e.ExLabel["span_id"])
	}
}
