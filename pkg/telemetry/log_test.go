package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

func TestLogHandler(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	defer func() { _ = tp.Shutdown(context.Background()) }()
	ctx, s := tp.Tracer(TracerName).Start(context.Background(), SpanHandler)
	defer s.End()
	traceID, spanID := s.SpanContext().TraceID().String(), s.SpanContext().SpanID().String()

	tests := []struct {
		name string
		ctx  context.Context
		log  func(l *slog.Logger, ctx context.Context)
		want map[string]any
	}{
		{name: "with span", ctx: ctx,
			log:  func(l *slog.Logger, ctx context.Context) { l.InfoContext(ctx, "hi") },
			want: map[string]any{"msg": "hi", "trace_id": traceID, "span_id": spanID}},
		{name: "no span", ctx: context.Background(),
			log:  func(l *slog.Logger, ctx context.Context) { l.InfoContext(ctx, "hi") },
			want: map[string]any{"msg": "hi"}},
		{name: "attrs kept", ctx: ctx,
			log:  func(l *slog.Logger, ctx context.Context) { l.With("component", "dispatch").InfoContext(ctx, "hi") },
			want: map[string]any{"msg": "hi", "component": "dispatch", "trace_id": traceID, "span_id": spanID}},
		{name: "group kept", ctx: ctx,
			log:  func(l *slog.Logger, ctx context.Context) { l.WithGroup("g").InfoContext(ctx, "hi", "k", "v") },
			want: map[string]any{"msg": "hi", "g": map[string]any{"k": "v", "trace_id": traceID, "span_id": spanID}}},
		{name: "served line keeps its own trace_id", ctx: ctx,
			log: func(l *slog.Logger, ctx context.Context) {
				l.InfoContext(ctx, "served", "trace_id", "abc")
			},
			want: map[string]any{"msg": "served", "trace_id": "abc"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			next := slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTimeAndLevel})
			tt.log(slog.New(NewLogHandler(next)), tt.ctx)
			var got map[string]any
			if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
				t.Fatalf("log line %q: %v", buf.String(), err)
			}
			gotJSON, _ := json.Marshal(got)
			wantJSON, _ := json.Marshal(tt.want)
			if string(gotJSON) != string(wantJSON) {
				t.Errorf("log line = %s; want %s", gotJSON, wantJSON)
			}
		})
	}
}

// dropTimeAndLevel removes the attributes that differ between runs.
func dropTimeAndLevel(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey) {
		return slog.Attr{}
	}
	return a
}

func TestServedArgs(t *testing.T) {
	b := Block{Command: "cat", TraceID: "0af7", QueueMS: 0.021, DispatchMS: 0.044, HandlerMS: 3315.2,
		SendMS: 2648, UpstreamMS: 1070.1, SendWaitMS: 0.5, OwnMS: 1.2, RoundTripMS: 3316}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTimeAndLevel})).
		Info("served", ServedArgs(b)...)
	want := "msg=served command=cat queue_ms=0.021 dispatch_ms=0.044 handler_ms=3315.2 send_ms=2648 " +
		"upstream_ms=1070.1 send_wait_ms=0.5 own_ms=1.2 round_trip_ms=3316 trace_id=0af7\n"
	if got := buf.String(); got != want {
		t.Errorf("served line = %q; want %q", got, want)
	}
	buf.Reset()
	b.Scheduled = true
	slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: dropTimeAndLevel})).
		Info("served", ServedArgs(b)...)
	if got, want := buf.String(), want[:len(want)-1]+" scheduled=true\n"; got != want {
		t.Errorf("a scheduled post's served line = %q; want %q", got, want)
	}
}

// TestAppendServedAttrs checks that the typed attributes give the very line
// ServedArgs gives, in the text and the JSON format.
func TestAppendServedAttrs(t *testing.T) {
	blocks := []Block{
		{Command: "cat", TraceID: "0af7", QueueMS: 0.021, DispatchMS: 0.044, HandlerMS: 3315.2,
			SendMS: 2648, UpstreamMS: 1070.1, SendWaitMS: 0.5, OwnMS: 1.2, RoundTripMS: 3316},
		{Command: "kot", TraceID: "c5e9e8653fc23664d1aa7bc876976c87", QueueMS: 0.104, Scheduled: true},
		{Command: `a "quoted" name`, OwnMS: 1e-3, RoundTripMS: 123456789.123},
		{},
	}
	handlers := map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler {
			return slog.NewTextHandler(b, &slog.HandlerOptions{ReplaceAttr: dropTimeAndLevel})
		},
		"json": func(b *bytes.Buffer) slog.Handler {
			return slog.NewJSONHandler(b, &slog.HandlerOptions{ReplaceAttr: dropTimeAndLevel})
		},
	}
	for name, newHandler := range handlers {
		for _, b := range blocks {
			var args, attrs bytes.Buffer
			slog.New(newHandler(&args)).Info("served", ServedArgs(b)...)
			var buf [ServedAttrsLen]slog.Attr
			slog.New(newHandler(&attrs)).LogAttrs(context.Background(), slog.LevelInfo, "served", AppendServedAttrs(buf[:0], b)...)
			if args.String() != attrs.String() {
				t.Errorf("%s: AppendServedAttrs line = %q; ServedArgs line = %q", name, attrs.String(), args.String())
			}
		}
	}
}
