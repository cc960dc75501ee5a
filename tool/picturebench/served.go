package main

import (
	"context"
	"log/slog"
	"sync"
)

// served is one "served" log line of the bot (telemetry.ServedArgs).
type served struct {
	command                         string
	upstreamMS, sendMS, roundTripMS float64
}

// servedLog is a slog.Handler that keeps the bot's "served" lines and passes
// warnings and errors on to next.
type servedLog struct {
	next slog.Handler
	mu   *sync.Mutex
	got  *[]served
}

func newServedLog(next slog.Handler) *servedLog {
	return &servedLog{next: next, mu: &sync.Mutex{}, got: &[]served{}}
}

// Enabled lets Info through for the served lines.
func (h *servedLog) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

// Handle keeps served lines and forwards what next would print.
func (h *servedLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "served" {
		var s served
		r.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "command":
				s.command = a.Value.String()
			case "upstream_ms":
				s.upstreamMS = a.Value.Float64()
			case "send_ms":
				s.sendMS = a.Value.Float64()
			case "round_trip_ms":
				s.roundTripMS = a.Value.Float64()
			}
			return true
		})
		h.mu.Lock()
		*h.got = append(*h.got, s)
		h.mu.Unlock()
	}
	if !h.next.Enabled(ctx, r.Level) {
		return nil
	}
	return h.next.Handle(ctx, r)
}

// WithAttrs keeps collecting into the same list.
func (h *servedLog) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.next = h.next.WithAttrs(as)
	return &c
}

// WithGroup keeps collecting into the same list.
func (h *servedLog) WithGroup(name string) slog.Handler {
	c := *h
	c.next = h.next.WithGroup(name)
	return &c
}

// take returns the served lines so far and forgets them.
func (h *servedLog) take() []served {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := *h.got
	*h.got = nil
	return out
}

// count is how many served lines are kept.
func (h *servedLog) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(*h.got)
}
