package telemetry

import (
	"math/rand/v2"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// The Compute of before the block was gathered span by span (blockAcc),
// kept to check that both give the same block.

// refSpans holds the spans of a trace that Compute reads.
type refSpans struct {
	root, queue, dispatch, handler sdktrace.ReadOnlySpan
}

// Compute returns the timing block of one trace's spans. It is pure: it reads
// the spans and nothing else. It reports false when no span is a root named
// SpanFrame or SpanScheduled. Durations are those of the first queue, dispatch and handler
// span; send and upstream are unions of the leg spans clipped to the handler
// (upstream minus what send already covers); own time is never negative; the
// round trip runs from the root's start to the last end of any span but a
// typing indicator's (LegTyping spans count nowhere).
func computeRef(spans []sdktrace.ReadOnlySpan) (Block, bool) {
	var fs refSpans
	for _, s := range spans {
		fs.take(s)
	}
	if fs.root == nil {
		return Block{}, false
	}
	queue := refDurationUS(fs.queue)
	dispatch := refDurationUS(fs.dispatch)
	handler := refDurationUS(fs.handler)
	send, upstream := refLegsUS(spans, fs.handler)
	own := max(queue+dispatch+handler-send-upstream, 0)
	wait := min(refNamedUS(spans, fs.handler, SpanSendWait), own)

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
		RoundTripMS: msFromUS(refRoundTripUS(spans, fs.root)),
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
func (fs *refSpans) take(s sdktrace.ReadOnlySpan) {
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
func (fs *refSpans) outcome() string {
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

// legsUS returns the microseconds of the handler covered by leg=send spans and,
// not counting those, by leg=upstream spans.
func refLegsUS(spans []sdktrace.ReadOnlySpan, handler sdktrace.ReadOnlySpan) (send, upstream int64) {
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
func refNamedUS(spans []sdktrace.ReadOnlySpan, handler sdktrace.ReadOnlySpan, name string) int64 {
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
func refRoundTripUS(spans []sdktrace.ReadOnlySpan, root sdktrace.ReadOnlySpan) int64 {
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
func refDurationUS(s sdktrace.ReadOnlySpan) int64 {
	if s == nil || s.EndTime().IsZero() {
		return 0
	}
	return roundUS(int64(s.EndTime().Sub(s.StartTime())))
}

// TestComputeMatchesReference checks Compute against computeRef on random
// traces: names, overlaps, legs, outcomes, repeated and mistyped attributes.
func TestComputeMatchesReference(t *testing.T) {
	names := []string{SpanFrame, SpanQueue, SpanSenderTurn, SpanDispatch, SpanHandler, SpanSendWait, "POST /v2/send", "GET a"}
	values := []attribute.KeyValue{
		AttrLeg.String(LegSend), AttrLeg.String(LegUpstream), AttrLeg.String(LegTyping), AttrLeg.Int(1),
		AttrOutcome.String(OutcomeServed), AttrOutcome.String(OutcomeCooldown), AttrOutcome.String(""), AttrOutcome.Bool(true),
		AttrCommand.String("cat"), AttrCommand.String("pomoc"), AttrCommand.Int(3),
		AttrSynthetic.Bool(true), AttrSynthetic.Bool(false), AttrSynthetic.String("true"),
	}
	rng := rand.New(rand.NewPCG(1, 24))
	for i := range 5000 {
		stubs := make([]stub, 1+rng.IntN(12))
		for j := range stubs {
			start := float64(rng.IntN(200000)) / 1000
			stubs[j] = stub{name: names[rng.IntN(len(names))], start: start, end: start + float64(rng.IntN(100000))/1000}
			for range rng.IntN(4) {
				stubs[j].attrs = append(stubs[j].attrs, values[rng.IntN(len(values))])
			}
		}
		spans := snapshots(stubs...)
		got, ok := Compute(spans)
		want, wantOK := computeRef(spans)
		if got != want || ok != wantOK {
			t.Fatalf("trace %d %+v:\nCompute    = %+v, %v\ncomputeRef = %+v, %v", i, stubs, got, ok, want, wantOK)
		}
	}
}
