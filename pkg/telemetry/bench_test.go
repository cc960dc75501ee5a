package telemetry

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// discardExporter exports nowhere, so the benchmark measures the tracing
// path and not an in-memory exporter that grows.
type discardExporter struct{}

func (discardExporter) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discardExporter) Shutdown(context.Context) error                             { return nil }

// benchFrame emits the spans of one served frame the way the pipeline does:
// frame, queue with sender.turn, dispatch, handler, and one send call.
func benchFrame(tr trace.Tracer) {
	ctx, root := tr.Start(context.Background(), SpanFrame, trace.WithNewRoot(),
		trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(AttrChat.String(ChatGroup)))
	qctx, q := tr.Start(ctx, SpanQueue)
	_, l := tr.Start(qctx, SpanSenderTurn)
	l.End()
	q.End()
	_, d := tr.Start(ctx, SpanDispatch)
	d.End()
	hctx, h := tr.Start(ctx, SpanHandler, trace.WithAttributes(AttrCommand.String("pomoc")))
	_, s := tr.Start(hctx, "POST /v2/send", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(AttrLeg.String(LegSend)))
	s.End()
	h.End()
	root.End()
}

func BenchmarkFrame(b *testing.B) {
	b.Run("sdk+owntime+batch", func(b *testing.B) {
		own := NewOwnTime(OwnTimeConfig{})
		tp := sdktrace.NewTracerProvider(
			sdktrace.WithSampler(recordAll{sdktrace.ParentBased(sdktrace.AlwaysSample())}),
			sdktrace.WithSpanProcessor(own),
			sdktrace.WithBatcher(discardExporter{}),
		)
		b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
		tr := tp.Tracer(TracerName)
		b.ReportAllocs()
		for b.Loop() {
			benchFrame(tr)
		}
		b.StopTimer()
		if st := own.Stats(); st.Open != 0 || st.Completed == 0 {
			b.Fatalf("Stats = %+v; want all traces completed", st)
		}
	})
	b.Run("sdk+batch", func(b *testing.B) { // The same without OwnTime, to show its share.
		tp := sdktrace.NewTracerProvider(
			sdktrace.WithSampler(recordAll{sdktrace.ParentBased(sdktrace.AlwaysSample())}),
			sdktrace.WithBatcher(discardExporter{}),
		)
		b.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
		tr := tp.Tracer(TracerName)
		b.ReportAllocs()
		for b.Loop() {
			benchFrame(tr)
		}
	})
	b.Run("noop", func(b *testing.B) {
		tr := noop.NewTracerProvider().Tracer(TracerName)
		b.ReportAllocs()
		for b.Loop() {
			benchFrame(tr)
		}
	})
}

func BenchmarkSenderHash(b *testing.B) {
	key := make([]byte, 32)
	for b.Loop() {
		_ = SenderHash(key, "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11")
	}
}
