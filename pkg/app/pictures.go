package app

import (
	"context"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/metrics"
	"signal-bot/pkg/pictures"
	"signal-bot/pkg/telemetry"
	"signal-bot/pkg/upstream"
)

// startPictures builds the upstream clients of !cat and !kot, under the fetch
// policy and traced as the upstream leg, and the picture sources in front of
// them (pictures.Start), keyed by command; and the Preparer of the hooks'
// pictures, over the same client and within the same decode budget. Its
// closer stops the refills: it must run before the tracer provider shuts
// down, since refill spans end on the way. panicked counts a panic recovered
// in a refill.
func startPictures(ctx context.Context, cfg config.Config, t transports, tp trace.TracerProvider, log *slog.Logger, panicked func(name string)) (
	map[string]commands.PictureSource, *pictures.Preparer, closer, error,
) {
	hc := &http.Client{
		Transport:     telemetry.NewTransport(t.policy.RoundTripper(t.up), tp, telemetry.LegUpstream),
		CheckRedirect: t.policy.CheckRedirect,
	}
	cat, err := upstream.NewCatAPI(hc, cfg.Upstreams.CatAPI())
	if err != nil {
		return nil, nil, nil, err
	}
	fetchers := map[string]pictures.Fetcher{"cat": cat, "kot": upstream.NewCommons(hc, cfg.Upstreams.Commons())}
	budget := pictures.NewBudget(cfg.Pictures.DecodeBudget) // one for the process
	srcs, stop := pictures.Start(ctx, cfg.Pictures, budget, cfg.Upstreams.Timeout, fetchers, tp, log, panicked)
	prep := pictures.NewPreparer(cfg.Pictures, budget, hc, cfg.Upstreams.MaxImageBytes, tp, log)
	return srcs, prep, stop, nil
}

// poolStats returns the counters of every picture source that is a pool,
// keyed by command, for /metrics.
func poolStats(srcs map[string]commands.PictureSource) map[string]metrics.PoolStats {
	out := make(map[string]metrics.PoolStats, len(srcs))
	for name, s := range srcs {
		if p, ok := s.(interface{ Stats() pictures.Stats }); ok {
			ps := p.Stats()
			out[name] = metrics.PoolStats{Hits: int64(ps.Hits), Misses: int64(ps.Misses), RefillErrors: int64(ps.RefillErrors), Ready: ps.Ready}
		}
	}
	return out
}
