package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Block is the timing block of one frame (docs/timing.md): where the time
// between reading the frame and the end of its last span went. All values
// are milliseconds rounded to the microsecond.
type Block struct {
	Command    string  `json:"command"`
	TraceID    string  `json:"trace_id"`
	QueueMS    float64 `json:"queue_ms"`
	DispatchMS float64 `json:"dispatch_ms"`
	HandlerMS  float64 `json:"handler_ms"`
	SendMS     float64 `json:"send_ms"`
	UpstreamMS float64 `json:"upstream_ms"`
	// SendWaitMS is the part of OwnMS the reply spent waiting for the
	// outbound budget or a 429 pause (span send.wait): a hold the bot chose,
	// not its code's time. OwnMS keeps counting it.
	SendWaitMS  float64 `json:"send_wait_ms"`
	OwnMS       float64 `json:"own_ms"`
	RoundTripMS float64 `json:"round_trip_ms"`
	Synthetic   bool    `json:"-"`
	// Scheduled is set for a scheduled post's trace (root SpanScheduled),
	// not a frame's.
	Scheduled bool   `json:"scheduled,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
	// RootSpanID and Sampled are the root frame span's id and whether it is
	// exported: what a metric's exemplar needs to link to the trace.
	RootSpanID trace.SpanID `json:"-"`
	Sampled    bool         `json:"-"`
}

// Compute returns the timing block of one trace's spans. It is pure: it reads
// the spans and nothing else. It reports false when no span is a root named
// SpanFrame or SpanScheduled. Durations are those of the first queue, dispatch and handler
// span; send and upstream are unions of the leg spans clipped to the handler
// (upstream minus what send already covers); own time is never negative; the
// round trip runs from the root's start to the last end of any span but a
// typing indicator's (LegTyping spans count nowhere).
func Compute(spans []sdktrace.ReadOnlySpan) (Block, bool) {
	var a blockAcc
	for _, s := range spans {
		f := factsOf(s, s.SpanContext())
		a.add(&f)
	}
	return a.block()
}

// isRoot reports whether a span with this parent starts a trace in this
// process: no parent, or a remote one.
func isRoot(parent trace.SpanContext) bool {
	return !parent.IsValid() || parent.IsRemote()
}

// roundUS rounds nanoseconds to whole microseconds; negatives become 0.
func roundUS(ns int64) int64 {
	if ns <= 0 {
		return 0
	}
	return (ns + int64(time.Microsecond)/2) / int64(time.Microsecond)
}

// msFromUS converts microseconds to milliseconds with three decimals.
func msFromUS(us int64) float64 {
	return float64(us) / 1000
}

// attr returns the value of key k on s.
func attr(s sdktrace.ReadOnlySpan, k attribute.Key) (attribute.Value, bool) {
	for _, kv := range s.Attributes() {
		if kv.Key == k {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// stringAttr returns the string value of key k on s, or "".
func stringAttr(s sdktrace.ReadOnlySpan, k attribute.Key) string {
	v, ok := attr(s, k)
	if !ok || v.Type() != attribute.STRING {
		return ""
	}
	return v.AsString()
}
