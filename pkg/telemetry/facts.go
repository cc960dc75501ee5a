package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// spanFacts is what a block needs of one ended span, read from it once:
// every accessor of a ReadOnlySpan copies the SDK's snapshot, and its
// attributes are a list to scan.
type spanFacts struct {
	name       string
	start, end time.Time
	sc         trace.SpanContext
	blockRoot  bool // IsBlockRoot(name) and a root in this process
	// The string attributes the block reads ("" when absent or not a
	// string), and AttrSynthetic when it is a bool.
	leg, outcome, command string
	synthetic             bool
}

// factsOf reads the facts of s, whose span context is sc.
func factsOf(s sdktrace.ReadOnlySpan, sc trace.SpanContext) spanFacts {
	f := spanFacts{name: s.Name(), start: s.StartTime(), end: s.EndTime(), sc: sc}
	f.blockRoot = IsBlockRoot(f.name) && isRoot(s.Parent())
	var seen [4]bool // leg, outcome, command, synthetic: the first of each key counts, as attr has it
	for _, kv := range s.Attributes() {
		switch kv.Key {
		case AttrLeg:
			f.leg = firstString(&seen[0], f.leg, kv.Value)
		case AttrOutcome:
			f.outcome = firstString(&seen[1], f.outcome, kv.Value)
		case AttrCommand:
			f.command = firstString(&seen[2], f.command, kv.Value)
		case AttrSynthetic:
			if !seen[3] {
				seen[3] = true
				f.synthetic = kv.Value.Type() == attribute.BOOL && kv.Value.AsBool()
			}
		}
	}
	return f
}

// firstString returns v's string when *seen is unset (and sets it), else cur.
func firstString(seen *bool, cur string, v attribute.Value) string {
	if *seen {
		return cur
	}
	*seen = true
	if v.Type() != attribute.STRING {
		return ""
	}
	return v.AsString()
}

// Tags of a blockAcc's intervals, bits: a span may be a leg and be named
// send.wait.
const (
	tagSend     = 1 << iota // a LegSend span
	tagUpstream             // a LegUpstream span
	tagWait                 // a SpanSendWait span
)

// taggedInterval is one interval of a leg or wait span.
type taggedInterval struct {
	interval
	tags uint8
}

// blockAcc gathers a trace's spans as they end, keeping only what its block
// needs: of the root and of the first queue, dispatch and handler span what
// the block reads of them, the leg and send.wait intervals, and the last end
// of a span that is not a typing indicator's. Adding the spans one by one
// and then computing gives the block Compute gives for the same spans in the
// same order. It must not be copied once a span was added.
type blockAcc struct {
	rootStart, rootEnd time.Time
	lastEnd            time.Time // of the spans that are not LegTyping's
	rootSC             trace.SpanContext
	rootOutcome        string
	dispatchOutcome    string
	command            string // the handler's
	handlerOutcome     string
	handlerLo          int64 // the handler's start and end, Unix nanoseconds
	handlerHi          int64
	// The durations, in microseconds, of the first queue, dispatch and handler span.
	queueUS, dispatchUS, handlerUS        int64
	hasRoot, hasQueue, hasDispatch, hasHd bool
	hasLast, synthetic, scheduled         bool
	ivs                                   []taggedInterval
	buf                                   [3]taggedInterval // backs ivs at first
}

// add takes the facts of one ended span.
func (a *blockAcc) add(f *spanFacts) {
	switch {
	case f.blockRoot && !a.hasRoot:
		a.hasRoot, a.rootStart, a.rootEnd, a.rootSC = true, f.start, f.end, f.sc
		a.rootOutcome, a.synthetic, a.scheduled = f.outcome, f.synthetic, f.name == SpanScheduled
	case f.name == SpanQueue && !a.hasQueue:
		a.hasQueue, a.queueUS = true, f.durationUS()
	case f.name == SpanDispatch && !a.hasDispatch:
		a.hasDispatch, a.dispatchUS, a.dispatchOutcome = true, f.durationUS(), f.outcome
	case f.name == SpanHandler && !a.hasHd:
		a.hasHd, a.handlerUS, a.command, a.handlerOutcome = true, f.durationUS(), f.command, f.outcome
		a.handlerLo, a.handlerHi = f.start.UnixNano(), f.end.UnixNano()
	}
	var tags uint8
	switch f.leg {
	case LegSend:
		tags = tagSend
	case LegUpstream:
		tags = tagUpstream
	}
	if f.name == SpanSendWait {
		tags |= tagWait
	}
	if tags != 0 {
		if a.ivs == nil {
			a.ivs = a.buf[:0]
		}
		a.ivs = append(a.ivs, taggedInterval{interval{f.start.UnixNano(), f.end.UnixNano()}, tags})
	}
	if f.leg != LegTyping && (!a.hasLast || f.end.After(a.lastEnd)) {
		a.lastEnd, a.hasLast = f.end, true
	}
}

// durationUS returns the duration of f in microseconds, 0 when it has not ended.
func (f *spanFacts) durationUS() int64 {
	if f.end.IsZero() {
		return 0
	}
	return roundUS(int64(f.end.Sub(f.start)))
}

// block computes the timing block of the spans added, as Compute does; false
// when none was a block root.
func (a *blockAcc) block() (Block, bool) {
	if !a.hasRoot {
		return Block{}, false
	}
	send, upstream, wait := a.legsUS()
	own := max(a.queueUS+a.dispatchUS+a.handlerUS-send-upstream, 0)
	last := a.rootEnd
	if a.hasLast && a.lastEnd.After(last) {
		last = a.lastEnd
	}
	b := Block{
		TraceID:     a.rootSC.TraceID().String(),
		RootSpanID:  a.rootSC.SpanID(),
		Sampled:     a.rootSC.IsSampled(),
		QueueMS:     msFromUS(a.queueUS),
		DispatchMS:  msFromUS(a.dispatchUS),
		HandlerMS:   msFromUS(a.handlerUS),
		SendMS:      msFromUS(send),
		UpstreamMS:  msFromUS(upstream),
		SendWaitMS:  msFromUS(min(wait, own)),
		OwnMS:       msFromUS(own),
		RoundTripMS: msFromUS(roundUS(int64(last.Sub(a.rootStart)))),
		Command:     a.command, // "" without a handler
		Synthetic:   a.synthetic,
		Scheduled:   a.scheduled,
		Outcome:     a.outcome(),
	}
	return b, true
}

// legsUS returns the microseconds of the handler covered by leg=send spans,
// by leg=upstream spans not counting those, and by send.wait spans; all 0
// without a handler.
func (a *blockAcc) legsUS() (send, upstream, wait int64) {
	if !a.hasHd {
		return 0, 0, 0
	}
	var sendBuf, allBuf [8]interval
	var waitBuf [2]interval
	sends, all, waits := sendBuf[:0], allBuf[:0], waitBuf[:0]
	for _, iv := range a.ivs {
		if iv.tags&tagSend != 0 {
			sends = append(sends, iv.interval)
		}
		if iv.tags&(tagSend|tagUpstream) != 0 {
			all = append(all, iv.interval)
		}
		if iv.tags&tagWait != 0 {
			waits = append(waits, iv.interval)
		}
	}
	send = roundUS(unionLen(clip(sends, a.handlerLo, a.handlerHi)))
	upstream = roundUS(unionLen(clip(all, a.handlerLo, a.handlerHi))) - send
	wait = roundUS(unionLen(clip(waits, a.handlerLo, a.handlerHi)))
	return send, upstream, wait
}

// outcome returns AttrOutcome from the root, else from dispatch, else from handler.
func (a *blockAcc) outcome() string {
	switch {
	case a.rootOutcome != "":
		return a.rootOutcome
	case a.dispatchOutcome != "":
		return a.dispatchOutcome
	}
	return a.handlerOutcome
}
