package telemetry

import (
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// Options and attributes built once, for the spans every frame starts:
// passing a slice of them allocates nothing, where building the same
// options for each span allocates the attributes, their option and the
// variadic slice. The slices are shared: never modify one.

// outcomeAttrs holds AttrOutcome for every Outcome value.
var outcomeAttrs = func() map[string][]attribute.KeyValue {
	m := make(map[string][]attribute.KeyValue)
	for _, o := range []string{OutcomeServed, OutcomeIgnored, OutcomeCooldown, OutcomeUnknown, OutcomeNotHere,
		OutcomeError, OutcomeDropped, OutcomeCutOff, OutcomeShed, OutcomeQuiet, OutcomeElsewhere} {
		m[o] = []attribute.KeyValue{AttrOutcome.String(o)}
	}
	return m
}()

// OutcomeAttrs returns AttrOutcome=outcome as a one-attribute slice, for
// span.SetAttributes(telemetry.OutcomeAttrs(o)...); built once for the
// Outcome values, for another value at each call.
func OutcomeAttrs(outcome string) []attribute.KeyValue {
	if kv, ok := outcomeAttrs[outcome]; ok {
		return kv
	}
	return []attribute.KeyValue{AttrOutcome.String(outcome)}
}

// maxHandlerStarts bounds the cached options of HandlerStart.
const maxHandlerStarts = 256

// handlerStarts holds HandlerStart's options by command, copied on write.
var handlerStarts struct {
	mu  sync.Mutex // serializes writers
	all atomic.Pointer[map[string][]trace.SpanStartOption]
}

// HandlerStart returns the start options of a handler span for command
// (AttrCommand), for tracer.Start(ctx, SpanHandler, HandlerStart(name)...),
// built once per command (up to 256 of them; the commands are few).
func HandlerStart(command string) []trace.SpanStartOption {
	if m := handlerStarts.all.Load(); m != nil {
		if opts, ok := (*m)[command]; ok {
			return opts
		}
	}
	opts := []trace.SpanStartOption{trace.WithAttributes(AttrCommand.String(command))}
	handlerStarts.mu.Lock()
	defer handlerStarts.mu.Unlock()
	old := handlerStarts.all.Load()
	if old != nil && len(*old) >= maxHandlerStarts {
		return opts
	}
	next := make(map[string][]trace.SpanStartOption)
	if old != nil {
		for k, v := range *old {
			next[k] = v
		}
	}
	next[command] = opts
	handlerStarts.all.Store(&next)
	return opts
}
