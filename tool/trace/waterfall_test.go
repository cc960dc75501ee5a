package main

import (
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/telemetry"
)

const testTrace = "0af7651916cd43dd8448eb211c80319c"

// pomocTrace is a !pomoc frame as Jaeger returns it, times in µs from t0.
func pomocTrace() []span {
	t0 := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	at := func(us int) time.Time { return t0.Add(time.Duration(us) * time.Microsecond) }
	sp := func(id, parent, name string, from, to int, attrs ...attribute.KeyValue) span {
		return span{TraceID: testTrace, SpanID: id, ParentID: parent, Name: name, Start: at(from), End: at(to), Attrs: attrs}
	}
	return []span{
		sp("0000000000000006", "0000000000000005", "POST /v2/send", 1100, 301100,
			attribute.String("bot.leg", "send"), attribute.Int64("http.response.status_code", 201)),
		sp("0000000000000001", "", "frame", 0, 302000, attribute.String("bot.outcome", "served")),
		sp("0000000000000002", "0000000000000001", "queue", 0, 50),
		sp("0000000000000004", "0000000000000002", "sender.turn", 10, 40),
		sp("0000000000000003", "0000000000000001", "dispatch", 60, 1000),
		sp("0000000000000005", "0000000000000001", "handler", 1000, 301500, attribute.String("bot.command", "pomoc")),
	}
}

func TestRender(t *testing.T) {
	var b strings.Builder
	if err := render(&b, pomocTrace(), 20); err != nil {
		t.Fatal(err)
	}
	want := `trace 0af7651916cd43dd8448eb211c80319c  !pomoc served  2026-12-01 07:00:00.000 UTC  302.000 ms
span                           start ms         ms  |0─────────302.000 ms|
frame                             0.000    302.000  |████████████████████|
  queue                           0.000      0.050  |▏                   |
    sender.turn                   0.010      0.030  |▏                   |
  dispatch                        0.060      0.940  |▏                   |
  handler pomoc                   1.000    300.500  |████████████████████|
    POST /v2/send [send] 201      1.100    300.000  |████████████████████|
command=pomoc queue_ms=0.05 dispatch_ms=0.94 handler_ms=300.5 send_ms=300 upstream_ms=0 send_wait_ms=0 own_ms=1.49 round_trip_ms=302 trace_id=0af7651916cd43dd8448eb211c80319c
own_ms = queue + dispatch + handler - send - upstream = 0.050 + 0.940 + 300.500 - 300.000 - 0.000 = 1.490
`
	if got := b.String(); got != want {
		t.Errorf("render =\n%s\nwant\n%s", got, want)
	}
}

func TestRenderMarksMissingParents(t *testing.T) {
	spans := pomocTrace()[1:] // no send span: complete still
	if !complete(spans) {
		t.Fatal("complete = false for a trace whose every parent is there")
	}
	spans = append(pomocTrace()[:1], pomocTrace()[2:5]...) // the send span without its handler
	if complete(spans) {
		t.Error("complete = true with the send span's parent missing")
	}
	var b strings.Builder
	if err := render(&b, spans, 20); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "POST /v2/send [send] 201 (parent not in Jaeger)") {
		t.Errorf("render does not mark the orphan:\n%s", b.String())
	}
}

func TestBar(t *testing.T) {
	tests := []struct {
		name     string
		from, to time.Duration
		want     string
	}{
		{"whole", 0, 100, "██████████"},
		{"first half", 0, 50, "█████     "},
		{"second half", 50, 100, "     █████"},
		{"a sliver", 42, 43, "    ▏     "},
		{"across a cell edge", 15, 25, " ██       "},
		{"at the end", 100, 100, "         ▏"},
	}
	for _, tt := range tests {
		if got := bar(10, 100, tt.from, tt.to); got != tt.want {
			t.Errorf("%s: bar(10, 100, %d, %d) = %q; want %q", tt.name, tt.from, tt.to, got, tt.want)
		}
	}
}

// The block is the bot's own formula on Jaeger's times: a send span that
// outlives the handler counts only inside it.
func TestBlock(t *testing.T) {
	b, ok := block(pomocTrace())
	if !ok {
		t.Fatal("block: no root frame")
	}
	want := telemetry.Block{Command: "pomoc", TraceID: testTrace, QueueMS: 0.05, DispatchMS: 0.94, HandlerMS: 300.5,
		SendMS: 300, OwnMS: 1.49, RoundTripMS: 302, Outcome: "served", RootSpanID: trace.SpanID{0, 0, 0, 0, 0, 0, 0, 1}, Sampled: true}
	if b != want {
		t.Errorf("block =\n %+v; want\n %+v", b, want)
	}
}

// A reply held by the send budget shows its wait as send_wait_ms on the block
// line and on a line of its own under the own_ms sum.
func TestRenderSendWait(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	at := func(us int) time.Time { return t0.Add(time.Duration(us) * time.Microsecond) }
	spans := append(pomocTrace(), span{TraceID: testTrace, SpanID: "0000000000000007", ParentID: "0000000000000005",
		Name: telemetry.SpanSendWait, Start: at(1000), End: at(1050)})
	var b strings.Builder
	if err := render(&b, spans, 20); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{" send_wait_ms=0.05 own_ms=1.49 ",
		"of which send_wait_ms = 0.050: the reply held for the send budget or a 429 pause (span send.wait), the rest 1.440\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("render lacks %q:\n%s", want, b.String())
		}
	}
}

// A hook that joined the trace shows under the upstream leg that called it,
// marked with its service, and its spans leave the block as it was: they
// lie within the leg, and their names are the hook's own.
func TestRenderHookSpans(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	at := func(us int) time.Time { return t0.Add(time.Duration(us) * time.Microsecond) }
	sp := func(svc, id, parent, name string, from, to int, attrs ...attribute.KeyValue) span {
		return span{TraceID: testTrace, SpanID: id, ParentID: parent, Name: name, Start: at(from), End: at(to), Attrs: attrs, Service: svc}
	}
	spans := []span{
		sp("signal-bot", "0000000000000001", "", "frame", 0, 305000, attribute.String("bot.outcome", "served")),
		sp("signal-bot", "0000000000000002", "0000000000000001", "queue", 0, 50),
		sp("signal-bot", "0000000000000003", "0000000000000001", "dispatch", 60, 1000),
		sp("signal-bot", "0000000000000005", "0000000000000001", "handler", 1000, 304500, attribute.String("bot.command", "czas")),
		sp("signal-bot", "0000000000000007", "0000000000000005", "POST 127.0.0.1:8088", 1100, 202100, attribute.String("bot.leg", "upstream"), attribute.Int64("http.response.status_code", 200)),
		sp("example-hook", "0000000000000008", "0000000000000007", "POST /czas", 1500, 201500),
		sp("example-hook", "0000000000000009", "0000000000000008", "handler", 1600, 201000), // a hook's span named as the bot's
		sp("signal-bot", "0000000000000006", "0000000000000005", "POST /v2/send", 202500, 304000, attribute.String("bot.leg", "send"), attribute.Int64("http.response.status_code", 201)),
	}
	var b strings.Builder
	if err := render(&b, spans, 20); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"\n    POST 127.0.0.1:8088 [upstream] 200 ",
		"\n      POST /czas (example-hook) ",
		"\n        handler (example-hook) ",
		"command=czas queue_ms=0.05 dispatch_ms=0.94 handler_ms=303.5 send_ms=101.5 upstream_ms=201 send_wait_ms=0 own_ms=1.99 ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
}
