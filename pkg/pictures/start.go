package pictures

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
)

// Start builds the picture source of each command of fetchers (by command
// name): a prefetch pool in front of the upstream when cfg.PoolSize gives the
// command one, else the upstream inline; both shrink as cfg says, within
// budget, the process's one decode budget (NewBudget of DECODE_BUDGET_BYTES,
// shared with the hooks' Preparer). timeout bounds one refill (UPSTREAM_TIMEOUT).
// The pools start filling at once and live until ctx ends or stop is called.
// Call stop in either case, before the tracer provider shuts down: it waits
// for the refills, whose spans end on the way. panicked, when set, counts a
// panic recovered in a pool's refill, by the pool's name ("refill_<name>").
func Start(ctx context.Context, cfg Config, budget *Budget, timeout time.Duration, fetchers map[string]Fetcher, tp trace.TracerProvider, log *slog.Logger, panicked func(name string)) (
	srcs map[string]commands.PictureSource, stop func(context.Context) error,
) {
	srcs = make(map[string]commands.PictureSource, len(fetchers))
	var pools []*Pool
	for name, f := range fetchers {
		src := NewSource(SourceConfig{Name: name, Fetcher: f, Shrink: cfg.Shrink(), Budget: budget, Tracer: tp, Log: log})
		n := cfg.PoolSize(name)
		if n == 0 {
			srcs[name] = src
			continue
		}
		pc := PoolConfig{
			Size: n, MaxBytes: cfg.PoolMaxBytes, Concurrency: cfg.PoolConcurrency,
			BackoffMin: cfg.PoolBackoffMin, BackoffMax: cfg.PoolBackoffMax,
			Timeout: timeout, Tracer: tp, Log: log,
		}
		if panicked != nil {
			pc.Panicked = func() { panicked("refill_" + name) }
		}
		p := NewPool(ctx, src, pc)
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
	return srcs, stop
}
