package metrics

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"signal-bot/pkg/telemetry"
)

// BenchmarkServed measures what becomes of one served block: the replies
// counter, the two histograms and the served line, logged as text.
func BenchmarkServed(b *testing.B) {
	src := Sources{
		Pipeline:   func() (int64, int64, int, int) { return 0, 0, 0, 0 },
		Evicted:    func() uint64 { return 0 },
		Connected:  func() bool { return true },
		Reconnects: func() int64 { return 0 },
	}
	m, err := New(src, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if err != nil {
		b.Fatalf("New: %v", err)
	}
	b.Cleanup(func() { _ = m.Shutdown(context.Background()) })
	blk := telemetry.Block{Command: "pomoc", Outcome: "served", TraceID: "0af7651916cd43dd8448eb211c80319c",
		QueueMS: 0.021, DispatchMS: 0.044, HandlerMS: 0.31, SendMS: 0.2, OwnMS: 0.18, RoundTripMS: 0.4, Sampled: true}
	b.ReportAllocs()
	for b.Loop() {
		m.Served(blk)
	}
}
