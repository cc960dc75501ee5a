// Command framepath runs the bot against the simulator and writes three
// snapshots of its coverage counters, for scripts/framepath.sh, which builds
// it with -cover and reads the snapshots: "start" after the bot started and
// idled, "idle" after as long again with nothing to do, and "frame" after
// one !pomoc in the group testbot was answered, its trace ended (the bot
// logged "served") and the same time went by. What counted up between idle
// and frame, and not between start and idle, is the frame's.
//
// Usage: go build -cover -coverpkg=… -o framepath ./tool/framepath &&
// GOCOVERDIR=… ./framepath -out DIR [-webhook] [-idle 2s]
//
// The bot runs with its defaults, but for the picture pools (off, as in the
// tests: !pomoc takes no picture, and a refill would run beside the frame),
// everything on loopback and in this process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/coverage"
	"time"

	"signal-bot/pkg/telemetry"
)

func main() {
	out := flag.String("out", "", "directory for the snapshots start, idle and frame (required)")
	webhook := flag.Bool("webhook", false, "receive by webhook (POST /_webhook) instead of the websocket")
	idle := flag.Duration("idle", 2*time.Second, "length of each window: after start, idle, and the frame's")
	flag.Parse()
	if err := run(*out, *webhook, *idle); err != nil {
		fmt.Fprintln(os.Stderr, "framepath:", err)
		os.Exit(1)
	}
}

func run(out string, webhook bool, idle time.Duration) (err error) {
	if out == "" {
		return errors.New("-out is required")
	}
	// As cmd/signal-bot logs (info and up, through telemetry's handler),
	// with only warnings and errors printed.
	served := make(chan struct{}, 1)
	text := slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})
	s, err := startStack(webhook, slog.New(telemetry.NewLogHandler(onServed{text, served})))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, s.close()) }()
	time.Sleep(idle)
	if err := snapshot(out, "start"); err != nil {
		return err
	}
	time.Sleep(idle)
	if err := snapshot(out, "idle"); err != nil {
		return err
	}
	began := time.Now()
	if err := s.pomoc(served); err != nil {
		return err
	}
	time.Sleep(idle - time.Since(began))
	return snapshot(out, "frame")
}

// snapshot writes the coverage meta-data and the counters as they stand into
// dir/name, a directory of its own that go tool covdata reads.
func snapshot(dir, name string) error {
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	if err := coverage.WriteMetaDir(d); err != nil {
		return fmt.Errorf("write coverage meta-data (build with -cover): %w", err)
	}
	if err := coverage.WriteCountersDir(d); err != nil {
		return fmt.Errorf("write coverage counters: %w", err)
	}
	return nil
}

// onServed passes records on and signals served when the bot logs a
// frame's "served" line, written once the frame's last span ended.
type onServed struct {
	slog.Handler
	served chan struct{}
}

func (h onServed) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (h onServed) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "served" {
		select {
		case h.served <- struct{}{}:
		default:
		}
	}
	if !h.Handler.Enabled(ctx, r.Level) {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h onServed) WithAttrs(as []slog.Attr) slog.Handler {
	return onServed{h.Handler.WithAttrs(as), h.served}
}

func (h onServed) WithGroup(name string) slog.Handler {
	return onServed{h.Handler.WithGroup(name), h.served}
}
