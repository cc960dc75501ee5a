// Command picturebench prints the figures of the picture pool and shrinker
// with the simulator's default latency profile (send 300 ms + 12.4 ms per KiB)
// and the fake upstreams' (386 ms search, 684 ms download), everything on
// loopback and in this process:
//
//   - !cat timing, side by side in one run: a bot with the pool and
//     shrinking off against one with both on (closed loop, -n each);
//   - bytes before and after shrinking for Cat-API-like pictures (size=med
//     and size=full, -pictures each), with the send time the profile charges;
//   - the pool's hit rate at one !cat per -interval for -duration.
//
// Usage: go run ./tool/picturebench [-n 20] [-pictures 40] [-interval 1s] [-duration 60s]
//
// The two bots run with the pictures settings' defaults, the first with
// POOL_SIZE_CAT=0 and SHRINK_LONG_EDGE=0. -edge, -quality and -keep change
// the shrinker of the bytes table only; -bytes-only prints that table alone.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/config"
	"signal-bot/pkg/pictures"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "picturebench:", err)
		os.Exit(1)
	}
}

// options are the command line.
type options struct {
	n, pictures        int
	interval, duration time.Duration
	edge, quality      int
	keep               int
	bytesOnly          bool
}

func parseFlags() (options, error) {
	var o options
	fs := flag.NewFlagSet("picturebench", flag.ContinueOnError)
	fs.IntVar(&o.n, "n", 20, "!cat per configuration in the side-by-side closed loop (1-200)")
	fs.IntVar(&o.pictures, "pictures", 40, "pictures per Cat API size in the bytes table (1-500)")
	fs.DurationVar(&o.interval, "interval", time.Second, "time between !cat in the hit-rate run")
	fs.DurationVar(&o.duration, "duration", time.Minute, "length of the hit-rate run (at most 10m)")
	fs.IntVar(&o.edge, "edge", -1, "SHRINK_LONG_EDGE for the bytes table (default: the bot's default)")
	fs.IntVar(&o.quality, "quality", 0, "SHRINK_QUALITY for the bytes table (default: the bot's default)")
	fs.IntVar(&o.keep, "keep", -1, "SHRINK_KEEP_BYTES for the bytes table (default: the bot's default)")
	fs.BoolVar(&o.bytesOnly, "bytes-only", false, "print the bytes table only (a few seconds, no bots)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		return o, err
	}
	switch {
	case o.n < 1 || o.n > 200:
		return o, errors.New("-n must be 1 to 200")
	case o.pictures < 1 || o.pictures > 500:
		return o, errors.New("-pictures must be 1 to 500")
	case o.quality < 0 || o.quality > 100:
		return o, errors.New("-quality must be 1 to 100")
	case o.interval < 100*time.Millisecond || o.duration < o.interval || o.duration > 10*time.Minute:
		return o, errors.New("-interval must be at least 100ms and -duration between it and 10m")
	}
	return o, nil
}

func run() error {
	o, err := parseFlags()
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defaults, err := config.Load(ctx, envconfig.MapLookuper(nil))
	if err != nil {
		return err
	}
	shrink := o.shrinker(defaults.Pictures)
	fmt.Printf("Bytes per picture before and after shrinking (SHRINK_LONG_EDGE=%d SHRINK_QUALITY=%d SHRINK_KEEP_BYTES=%d), fake Cat API, send ms modelled by sim.DefaultLatency:\n",
		shrink.LongEdge, shrink.Quality, shrink.KeepBytes)
	if err := measureBytes(ctx, os.Stdout, o.pictures, shrink, defaults.Upstreams); err != nil || o.bytesOnly {
		return err
	}
	return runBots(ctx, o, defaults.Pictures.PoolSizeCat)
}

// shrinker is the shrinker of the bytes table: the bot's defaults p, with
// the -edge, -quality and -keep given.
func (o options) shrinker(p pictures.Config) pictures.Options {
	shrink := pictures.Options{
		LongEdge: p.ShrinkLongEdge, Quality: p.ShrinkQuality, KeepBytes: p.ShrinkKeepBytes, GIFMaxBytes: p.ShrinkGIFMaxBytes,
		MaxDecodeBytes: p.DecodeBudget,
	}
	if o.edge >= 0 {
		shrink.LongEdge = o.edge
	}
	if o.quality > 0 {
		shrink.Quality = o.quality
	}
	if o.keep >= 0 {
		shrink.KeepBytes = o.keep
	}
	return shrink
}

// runBots starts a bot with the pool and shrinking off and one with both on
// (a pool of poolSize), times !cat on both side by side, then measures the
// second one's hit rate.
func runBots(ctx context.Context, o options, poolSize int) (err error) {
	stderr := slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})
	offLog, onLog := newServedLog(stderr), newServedLog(stderr)
	off, err := startStack("pool off, shrink off", map[string]string{"POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0", "SHRINK_LONG_EDGE": "0"}, slog.New(offLog))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, off.close()) }()
	on, err := startStack(fmt.Sprintf("pool %d, shrink on", poolSize), map[string]string{"POOL_SIZE_KOT": "0"}, slog.New(onLog))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, on.close()) }()
	if err := on.waitPoolFilled(poolSize); err != nil {
		return err
	}
	stacks := []*stack{off, on}
	fmt.Printf("\n!cat, %d one after another per bot, both bots at once (sim.DefaultLatency, fakeup.DefaultLatency):\n", o.n)
	res := closedLoops(stacks, o.n)
	for _, r := range res {
		if r.err != nil {
			return r.err
		}
	}
	if err := printLoops(os.Stdout, stacks, res); err != nil {
		return err
	}

	fmt.Println("\nPool hit rate (a hit is a frame with upstream_ms = 0):")
	return openLoop(ctx, os.Stdout, on, onLog, o.interval, o.duration)
}
