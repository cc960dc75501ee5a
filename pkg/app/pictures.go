package app

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/pictures"
	"signal-bot/pkg/upstream"
)

// startPictures builds the picture sources of !cat and !kot, keyed by
// command: a prefetch pool in front of the upstream when the command's
// POOL_SIZE_* is above 0, else the upstream inline; both shrink as
// configured. The pools start filling at once and live until ctx ends or
// stop is called. Call stop in either case, before the tracer provider shuts
// down: it waits for the refills, whose spans end on the way.
func startPictures(ctx context.Context, cfg config.Config, tp trace.TracerProvider, log *slog.Logger, hc *http.Client) (
	srcs map[string]commands.PictureSource, stop func(context.Context) error, err error,
) {
	if err := cfg.Pictures.Validate(); err != nil {
		return nil, nil, err
	}
	inline, err := newSources(cfg, tp, log, hc)
	if err != nil {
		return nil, nil, err
	}
	srcs = make(map[string]commands.PictureSource, len(inline))
	var pools []*pictures.Pool
	for _, name := range []string{"cat", "kot"} {
		n := cfg.Pictures.PoolSize(name)
		if n == 0 {
			srcs[name] = inline[name]
			continue
		}
		p, err := pictures.NewPool(ctx, inline[name], pictures.PoolConfig{
			Size: n, MaxBytes: cfg.Pictures.PoolMaxBytes, Concurrency: cfg.Pictures.PoolConcurrency,
			BackoffMin: cfg.Pictures.PoolBackoffMin, BackoffMax: cfg.Pictures.PoolBackoffMax,
			Timeout: cfg.Upstreams.Timeout, Tracer: tp, Log: log,
		})
		if err != nil {
			for _, started := range pools {
				_ = started.Close(ctx)
			}
			return nil, nil, err
		}
		pools = append(pools, p)
		srcs[name] = p
	}
	stop = func(ctx context.Context) error {
		var errs []error
		for _, p := range pools {
			errs = append(errs, p.Close(ctx))
		}
		return errors.Join(errs...)
	}
	return srcs, stop, nil
}

// newSources makes the inline source of each picture command: its upstream
// client and the shrinker.
func newSources(cfg config.Config, tp trace.TracerProvider, log *slog.Logger, hc *http.Client) (map[string]*pictures.Source, error) {
	u, p := cfg.Upstreams, cfg.Pictures
	shrink := pictures.Options{
		LongEdge: p.ShrinkLongEdge, Quality: p.ShrinkQuality, KeepBytes: p.ShrinkKeepBytes, GIFMaxBytes: p.ShrinkGIFMaxBytes,
		MaxDecodeBytes: p.DecodeBudget,
	}
	budget, err := pictures.NewBudget(p.DecodeBudget) // one for both commands: the bound is the process's
	if err != nil {
		return nil, err
	}
	cat, err := upstream.NewCatAPI(hc, upstream.CatAPIConfig{BaseURL: u.CatAPIURL, APIKey: u.CatAPIKey, Size: u.CatSize, MaxBytes: u.MaxImageBytes})
	if err != nil {
		return nil, err
	}
	kot, err := upstream.NewCommons(hc, upstream.CommonsConfig{
		APIURL: u.CommonsAPIURL, Category: u.CommonsCat, ThumbWidth: u.ThumbWidth, UserAgent: u.UserAgent,
		MaxBytes: u.MaxImageBytes, // the list's TTL is upstream.CommonsListTTL: no variable sets it
	})
	if err != nil {
		return nil, err
	}
	fetchers := map[string]pictures.Fetcher{"cat": cat, "kot": kot}
	srcs := make(map[string]*pictures.Source, len(fetchers))
	for name, f := range fetchers {
		if srcs[name], err = pictures.NewSource(pictures.SourceConfig{Name: name, Fetcher: f, Shrink: shrink, Budget: budget, Tracer: tp, Log: log}); err != nil {
			return nil, err
		}
	}
	return srcs, nil
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
