package app

import (
	"context"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/pictures"
	"signal-bot/pkg/upstream"
)

// startPictures builds the upstream clients of !cat and !kot on hc and the
// picture sources in front of them (pictures.Start), keyed by command. Call
// stop before the tracer provider shuts down.
func startPictures(ctx context.Context, cfg config.Config, tp trace.TracerProvider, log *slog.Logger, hc *http.Client) (
	srcs map[string]commands.PictureSource, stop func(context.Context) error, err error,
) {
	cat, err := upstream.NewCatAPI(hc, cfg.Upstreams.CatAPI())
	if err != nil {
		return nil, nil, err
	}
	fetchers := map[string]pictures.Fetcher{"cat": cat, "kot": upstream.NewCommons(hc, cfg.Upstreams.Commons())}
	srcs, stop = pictures.Start(ctx, cfg.Pictures, cfg.Upstreams.Timeout, fetchers, tp, log)
	return srcs, stop, nil
}

// poolStats returns the counters of every picture source that is a pool,
// keyed by command, for /metrics.
func poolStats(srcs map[string]commands.PictureSource) map[string]pictures.Stats {
	out := make(map[string]pictures.Stats, len(srcs))
	for name, s := range srcs {
		if p, ok := s.(interface{ Stats() pictures.Stats }); ok {
			out[name] = p.Stats()
		}
	}
	return out
}
