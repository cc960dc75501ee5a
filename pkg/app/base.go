package app

import (
	"context"

	"signal-bot/pkg/config"
	"signal-bot/pkg/telemetry"
)

// buildBase builds, in this order, the metrics over g and the OwnTime
// feeding them, the state file, the transports and the tracer provider: each
// is closed after what is built on it. The parts of the bot come back in
// botParts, which New completes.
func (a *App) buildBase(ctx context.Context, cfg config.Config, o Options, g *gauges) (
	p botParts, t transports, own *telemetry.OwnTime, err error,
) {
	var done closer
	if p.metrics, own, done, err = newMetrics(g, o); err != nil {
		return p, t, nil, err
	}
	a.closers = append(a.closers, done)
	if p.state, done, err = openState(cfg, a.log, p.metrics); err != nil {
		return p, t, nil, err
	}
	a.closers = append(a.closers, done)
	a.left = p.state.left.Frames
	t, done = newTransports(cfg)
	a.closers = append(a.closers, done)
	if p.tp, done, err = setupTracing(ctx, o, own); err != nil {
		return p, t, nil, err
	}
	a.closers = append(a.closers, done)
	p.log, p.base = a.log, t.base
	return p, t, own, nil
}
