package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// t0 is the fixed time every test trace starts at.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// at returns t0 plus ms milliseconds.
func at(ms float64) time.Time {
	return t0.Add(time.Duration(ms * float64(time.Millisecond)))
}

// stub describes one span of a test trace, times in ms after t0.
type stub struct {
	name       string
	start, end float64
	attrs      []attribute.KeyValue
}

// testTraceID is the trace id of stub traces.
var testTraceID = trace.TraceID{0x0a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}

// snapshots turns stubs into read-only spans of one trace. A stub named
// SpanFrame is the root; every other stub is its child.
func snapshots(stubs ...stub) []sdktrace.ReadOnlySpan {
	root := trace.NewSpanContext(trace.SpanContextConfig{TraceID: testTraceID, SpanID: trace.SpanID{1}})
	out := make([]sdktrace.ReadOnlySpan, 0, len(stubs))
	for i, s := range stubs {
		ss := tracetest.SpanStub{
			Name:       s.name,
			StartTime:  at(s.start),
			EndTime:    at(s.end),
			Attributes: s.attrs,
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{
				TraceID: testTraceID, SpanID: trace.SpanID{byte(i + 2)},
			}),
			Parent: root,
		}
		if s.name == SpanFrame {
			ss.SpanContext, ss.Parent = root, trace.SpanContext{}
		}
		out = append(out, ss.Snapshot())
	}
	return out
}

// upstream and send are the attributes of client spans.
var (
	upstream = []attribute.KeyValue{AttrLeg.String(LegUpstream)}
	send     = []attribute.KeyValue{AttrLeg.String(LegSend)}
)
