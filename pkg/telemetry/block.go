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

// frameSpans holds the spans of a trace that Compute reads.
type frameSpans struct {
	root, queue, dispatch, handler sdktrace.ReadOnlySpan
}

// Compute returns the timing block of one trace's spans. It is pure: it reads
// the spans and nothing else. It reports false when no span is a root named
// SpanFrame or SpanScheduled. Durations are those of the first queue, dispatch and handler
// span; send and upstream are unions of the leg spans clipped to the handler
// (upstream minus what send already covers); own time is never negative; the
// round trip runs from the root's start to the last end of any span but a
// typing indicator's (LegTyping spans count nowhere).
func Compute(spans []sdktrace.ReadOnlySpan) (Block, bool) {
	var fs frameSpans
	for _, s := range spans {
		fs.take(s)
	}
	if fs.root == nil {
		return Block{}, false
	}
	queue := durationUS(fs.queue)
	dispatch := durationUS(fs.dispatch)
	handler := durationUS(fs.handler)
	send, upstream := legsUS(spans, fs.handler)
	own := max(queue+dispatch+handler-send-upstream, 0)
	wait := min(namedUS(spans, fs.handler, SpanSendWait), own)

	rootSC := fs.root.SpanContext()
	b := Block{
		TraceID:     rootSC.TraceID().String(),
		RootSpanID:  rootSC.SpanID(),
		Sampled:     rootSC.IsSampled(),
		QueueMS:     msFromUS(queue),
		DispatchMS:  msFromUS(dispatch),
		HandlerMS:   msFromUS(handler),
		SendMS:      msFromUS(send),
		UpstreamMS:  msFromUS(upstream),
		SendWaitMS:  msFromUS(wait),
		OwnMS:       msFromUS(own),
		RoundTripMS: msFromUS(roundTripUS(spans, fs.root)),
	}
	if fs.handler != nil {
		b.Command = stringAttr(fs.handler, AttrCommand)
	}
	if v, ok := attr(fs.root, AttrSynthetic); ok && v.Type() == attribute.BOOL {
		b.Synthetic = v.AsBool()
	}
	b.Outcome = fs.outcome()
	b.Scheduled = fs.root.Name() == SpanScheduled
	return b, true
}

// take remembers s if it is the root or the first queue, dispatch or handler span.
func (fs *frameSpans) take(s sdktrace.ReadOnlySpan) {
	switch name := s.Name(); {
	case IsBlockRoot(name) && isRoot(s.Parent()) && fs.root == nil:
		fs.root = s
	case name == SpanQueue && fs.queue == nil:
		fs.queue = s
	case name == SpanDispatch && fs.dispatch == nil:
		fs.dispatch = s
	case name == SpanHandler && fs.handler == nil:
		fs.handler = s
	}
}

// outcome returns AttrOutcome from the root, else from dispatch, else from handler.
func (fs *frameSpans) outcome() string {
	for _, s := range []sdktrace.ReadOnlySpan{fs.root, fs.dispatch, fs.handler} {
		if s == nil {
			continue
		}
		if o := stringAttr(s, AttrOutcome); o != "" {
			return o
		}
	}
	return ""
}

// isRoot reports whether a span with this parent starts a trace in this
// process: no parent, or a remote one.
func isRoot(parent trace.SpanContext) bool {
	return !parent.IsValid() || parent.IsRemote()
}

// legsUS returns the microseconds of the handler covered by leg=send spans and,
// not counting those, by leg=upstream spans.
func legsUS(spans []sdktrace.ReadOnlySpan, handler sdktrace.ReadOnlySpan) (send, upstream int64) {
	if handler == nil {
		return 0, 0
	}
	var sendBuf, allBuf [8]interval
	sends, all := sendBuf[:0], allBuf[:0]
	for _, s := range spans {
		leg := stringAttr(s, AttrLeg)
		if leg != LegSend && leg != LegUpstream {
			continue
		}
		iv := interval{s.StartTime().UnixNano(), s.EndTime().UnixNano()}
		all = append(all, iv)
		if leg == LegSend {
			sends = append(sends, iv)
		}
	}
	lo, hi := handler.StartTime().UnixNano(), handler.EndTime().UnixNano()
	sendNS := unionLen(clip(sends, lo, hi))
	allNS := unionLen(clip(all, lo, hi))
	return roundUS(sendNS), roundUS(allNS) - roundUS(sendNS)
}

// namedUS returns the microseconds of the handler covered by the spans named
// name.
func namedUS(spans []sdktrace.ReadOnlySpan, handler sdktrace.ReadOnlySpan, name string) int64 {
	if handler == nil {
		return 0
	}
	var buf [2]interval
	ivs := buf[:0]
	for _, s := range spans {
		if s.Name() == name {
			ivs = append(ivs, interval{s.StartTime().UnixNano(), s.EndTime().UnixNano()})
		}
	}
	return roundUS(unionLen(clip(ivs, handler.StartTime().UnixNano(), handler.EndTime().UnixNano())))
}

// roundTripUS returns the microseconds from the root's start to the last end
// of any span but a typing indicator's, which the reply never waits for.
func roundTripUS(spans []sdktrace.ReadOnlySpan, root sdktrace.ReadOnlySpan) int64 {
	last := root.EndTime()
	for _, s := range spans {
		if e := s.EndTime(); e.After(last) && stringAttr(s, AttrLeg) != LegTyping {
			last = e
		}
	}
	return roundUS(int64(last.Sub(root.StartTime())))
}

// durationUS returns the span's duration in microseconds, 0 for nil or for a
// span that has not ended.
func durationUS(s sdktrace.ReadOnlySpan) int64 {
	if s == nil || s.EndTime().IsZero() {
		return 0
	}
	return roundUS(int64(s.EndTime().Sub(s.StartTime())))
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
