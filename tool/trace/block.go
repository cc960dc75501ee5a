package main

import (
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/telemetry"
)

// block computes the timing block from the spans Jaeger stored, with the
// function the bot itself uses, so the two can only differ by what Jaeger
// did to the times. Only the bot's spans count, those of the root's
// service: a hook's that joined the trace lie within its upstream leg, and
// their names are the hook's own. It reports false without a root frame
// span.
func block(spans []span) (telemetry.Block, bool) {
	stubs := make(tracetest.SpanStubs, 0, len(spans))
	bot := rootService(spans)
	for _, s := range spans {
		if s.Service != bot {
			continue
		}
		tid, _ := trace.TraceIDFromHex(s.TraceID)
		sid, _ := trace.SpanIDFromHex(s.SpanID)
		stub := tracetest.SpanStub{
			Name:        s.Name,
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled}),
			StartTime:   s.Start,
			EndTime:     s.End,
			Attributes:  s.Attrs,
		}
		if s.ParentID != "" {
			pid, _ := trace.SpanIDFromHex(s.ParentID)
			stub.Parent = trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: pid, TraceFlags: trace.FlagsSampled})
		}
		stubs = append(stubs, stub)
	}
	return telemetry.Compute(stubs.Snapshots())
}

// rootService is the service of the trace's root span, the bot's.
func rootService(spans []span) string {
	for _, s := range spans {
		if s.ParentID == "" {
			return s.Service
		}
	}
	return ""
}

// complete tells whether every span's parent is among the spans and one is
// the root frame: a trace Jaeger holds only in part (spans are exported in
// batches) would give a wrong block.
func complete(spans []span) bool {
	ids := make(map[string]bool, len(spans))
	for _, s := range spans {
		ids[s.SpanID] = true
	}
	root := false
	for _, s := range spans {
		switch {
		case s.ParentID == "":
			root = root || s.Name == telemetry.SpanFrame
		case !ids[s.ParentID]:
			return false
		}
	}
	return root
}
