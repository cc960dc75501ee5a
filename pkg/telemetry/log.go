package telemetry

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// Log attribute keys that join a line to its trace.
const (
	LogTraceID = "trace_id"
	LogSpanID  = "span_id"
)

// logHandler adds the trace and span id of the record's ctx.
type logHandler struct {
	next slog.Handler
}

// NewLogHandler returns a handler that adds trace_id and span_id, from the
// span context of the ctx passed to the logger's ...Context methods, to
// every record, and passes it on to next. A record that already has a
// trace_id (the served line) is passed on as it is. Like any record
// attribute, the ids land in the group opened by WithGroup, if any.
func NewLogHandler(next slog.Handler) slog.Handler {
	return logHandler{next: next}
}

// Enabled reports whether next handles records at level l.
func (h logHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

// Handle adds the ids, when ctx has a valid span context, and passes r on.
func (h logHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() && !hasTraceID(r) {
		r = r.Clone()
		r.AddAttrs(slog.String(LogTraceID, sc.TraceID().String()), slog.String(LogSpanID, sc.SpanID().String()))
	}
	return h.next.Handle(ctx, r)
}

// hasTraceID reports whether r already carries trace_id, as the served line does.
func hasTraceID(r slog.Record) bool {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == LogTraceID
		return !found
	})
	return found
}

// WithAttrs returns a handler whose next handler has attrs.
func (h logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return logHandler{next: h.next.WithAttrs(attrs)}
}

// WithGroup returns a handler whose next handler opens the group name.
func (h logHandler) WithGroup(name string) slog.Handler {
	return logHandler{next: h.next.WithGroup(name)}
}

// ServedArgs returns the key/value pairs of the "served" log line, in the
// order command, queue_ms, dispatch_ms, handler_ms, send_ms, upstream_ms,
// send_wait_ms, own_ms, round_trip_ms, trace_id, and scheduled=true for a
// scheduled post:
//
//	log.InfoContext(ctx, "served", telemetry.ServedArgs(b)...)
func ServedArgs(b Block) []any {
	args := []any{
		"command", b.Command,
		"queue_ms", b.QueueMS,
		"dispatch_ms", b.DispatchMS,
		"handler_ms", b.HandlerMS,
		"send_ms", b.SendMS,
		"upstream_ms", b.UpstreamMS,
		"send_wait_ms", b.SendWaitMS,
		"own_ms", b.OwnMS,
		"round_trip_ms", b.RoundTripMS,
		LogTraceID, b.TraceID,
	}
	if b.Scheduled {
		args = append(args, "scheduled", true)
	}
	return args
}

// ServedAttrsLen is the most attributes AppendServedAttrs appends.
const ServedAttrsLen = 11

// AppendServedAttrs appends the attributes of the "served" log line to dst
// and returns the result: the fields of ServedArgs, in its order, typed, so
// that a caller with a stack array logs the line without boxing a value:
//
//	var buf [telemetry.ServedAttrsLen]slog.Attr
//	log.LogAttrs(ctx, slog.LevelInfo, "served", telemetry.AppendServedAttrs(buf[:0], b)...)
func AppendServedAttrs(dst []slog.Attr, b Block) []slog.Attr {
	dst = append(dst,
		slog.String("command", b.Command),
		slog.Float64("queue_ms", b.QueueMS),
		slog.Float64("dispatch_ms", b.DispatchMS),
		slog.Float64("handler_ms", b.HandlerMS),
		slog.Float64("send_ms", b.SendMS),
		slog.Float64("upstream_ms", b.UpstreamMS),
		slog.Float64("send_wait_ms", b.SendWaitMS),
		slog.Float64("own_ms", b.OwnMS),
		slog.Float64("round_trip_ms", b.RoundTripMS),
		slog.String(LogTraceID, b.TraceID),
	)
	if b.Scheduled {
		dst = append(dst, slog.Bool("scheduled", true))
	}
	return dst
}
