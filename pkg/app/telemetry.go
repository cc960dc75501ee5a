package app

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/metrics"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/standing"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
)

// gauges are the parts /metrics reads that New builds after the metrics: those
// come first, since they shut down last and the tracer provider's OwnTime
// hands them its blocks. New fills them in; /metrics is only served by Run.
type gauges struct {
	intake    *bot.Intake
	api       *signalapi.Client
	connected func() bool
	pictures  map[string]commands.PictureSource
	gate      *outbound.Gate
}

// newMetrics builds the metrics over g and the OwnTime whose blocks they
// count and log (after which o.Served gets them). Its closer shuts the
// metrics down.
func newMetrics(g *gauges, o Options) (*metrics.Metrics, *telemetry.OwnTime, closer, error) {
	var own *telemetry.OwnTime // its blocks go to the metrics, which read its figures
	m, err := metrics.New(metrics.Sources{
		Pipeline: func() (int64, int64, int, int) {
			s := g.intake.Stats()
			return s.Accepted, s.Dropped, s.Depth, s.Active
		},
		Evicted:    func() uint64 { return own.Stats().Evicted },
		Connected:  func() bool { return g.connected() },
		Reconnects: func() int64 { return g.api.Reconnects() },
		Pool:       func() map[string]metrics.PoolStats { return poolStats(g.pictures) },
		Drops: func() map[string]int64 {
			s := g.intake.Stats()
			return map[string]int64{"queue_full": s.DroppedFull, "sender_queue": s.DroppedSender, "queue_bytes": s.DroppedBytes}
		},
		PausedUntil: func() time.Time { return g.gate.PausedUntil(time.Now()) },
		LastFrame:   func() time.Time { return g.intake.Heard().Last() },
	}, o.Log, o.Served)
	if err != nil {
		return nil, nil, nil, err
	}
	own = telemetry.NewOwnTime(telemetry.OwnTimeConfig{OnBlock: m.Served})
	return m, own, m.Shutdown, nil
}

// setupTracing builds the tracer provider with own as a span processor
// (telemetry.Setup). Its closer flushes the spans and shuts it down.
func setupTracing(ctx context.Context, o Options, own *telemetry.OwnTime) (trace.TracerProvider, closer, error) {
	tel, shutdown, err := telemetry.Setup(ctx, telemetry.Config{Version: o.Version, Logger: o.Log}, own)
	if err != nil {
		return nil, nil, fmt.Errorf("set up tracing: %w", err)
	}
	return tel.Provider, shutdown, nil
}

// healthStats are the state writer's and the sends' figures for /metrics.
func healthStats(st *store.Store, a *standing.Account) func() metrics.HealthStats {
	return func() metrics.HealthStats {
		s, ss := st.Stats(), a.SendStats()
		return metrics.HealthStats{StateRejected: s.Rejected, AnswerUnreadable: ss.AnswerUnreadable, SendFailedInRow: ss.FailedInRow}
	}
}
