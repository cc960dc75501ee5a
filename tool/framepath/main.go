// Command framepath runs the bot against the simulator and measures which of
// its files one !pomoc goes through, for scripts/framepath.sh, which builds
// it with -cover. A run writes three snapshots of the coverage counters:
// "start" after the bot started and idled, "idle" after as long again with
// nothing to do, and "frame" after one !pomoc in the group testbot was
// answered, its trace ended (the bot logged "served") and the same time went
// by; what counted up between idle and frame, and not between start and
// idle, is the frame's (the files it touched). It also writes two execution
// traces: idle.trace of the idle window and frame.trace from just before the
// frame is delivered until its trace ended.
//
// With -report, it reads the traces of one run or more and prints the
// frame's path: the bot's files on the stacks recorded in the frame's window,
// but for those recorded in the idle window too and for the calls a
// goroutine was already in before, with the up-calls among them by the
// package table of docs/architecture.md.
//
// Usage: go build -cover -coverpkg=… -o framepath ./tool/framepath &&
// GOCOVERDIR=… ./framepath -out DIR [-webhook] [-idle 2s] &&
// ./framepath -report [-webhook] [-doc docs/architecture.md] -leaves "store …" DIR…
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
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/coverage"
	"runtime/debug"
	"strings"
	"time"

	"signal-bot/pkg/telemetry"
)

func main() {
	out := flag.String("out", "", "directory for the snapshots start, idle and frame and the traces idle.trace and frame.trace (required)")
	webhook := flag.Bool("webhook", false, "receive by webhook (POST /_webhook) instead of the websocket")
	idle := flag.Duration("idle", 2*time.Second, "length of each window: after start, idle, and the frame's")
	report := flag.Bool("report", false, "print the path of the runs whose -out directories are the arguments, instead of running")
	doc := flag.String("doc", "docs/architecture.md", "with -report: the page whose package table says which package may import which")
	leaves := flag.String("leaves", "", "with -report: the leaf packages, space-separated short names (store is pkg/store)")
	flag.Parse()
	var err error
	if *report {
		mode := "websocket"
		if *webhook {
			mode = "webhook"
		}
		err = printPath(os.Stdout, mode, *doc, *leaves, flag.Args())
	} else {
		err = run(*out, *webhook, *idle)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "framepath:", err)
		os.Exit(1)
	}
}

// printPath reads the traces of the runs in dirs and prints the frame's path.
func printPath(w io.Writer, mode, doc, leaves string, dirs []string) error {
	if len(dirs) == 0 {
		return errors.New("-report needs the directories of one run or more")
	}
	allowed, err := readAllowed(doc)
	if err != nil {
		return err
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return errors.New("no build information: the module's path is unknown")
	}
	m := &merged{stacks: map[string]*mergedStack{}, files: map[string]int{}, ups: map[upCall]int{}}
	for _, d := range dirs {
		run, err := loadRun(bi.Main.Path, d)
		if err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
		m.merge(run, allowed)
	}
	leaf := map[string]bool{}
	for _, l := range strings.Fields(leaves) {
		leaf["pkg/"+l] = true
	}
	m.print(w, mode, leaf)
	return nil
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
	// The idle window, traced: the bot's stacks at rest.
	if err := traced(out, "idle.trace", func() error { time.Sleep(idle); return nil }); err != nil {
		return err
	}
	if err := snapshot(out, "idle"); err != nil {
		return err
	}
	began := time.Now()
	// The frame's window, traced from just before the frame is delivered
	// until its trace ended.
	if err := traced(out, "frame.trace", func() error { return s.pomoc(served) }); err != nil {
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
