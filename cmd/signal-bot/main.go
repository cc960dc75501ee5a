// Command signal-bot answers !commands in Signal chats beside
// signal-cli-rest-api (json-rpc mode), and knows how much of each reply's
// latency is its own. With no SIGNAL_API_URL it runs the sandbox: the bot
// against its built-in simulated REST API and fake picture upstreams.
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

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/activation"
	"signal-bot/pkg/app"
	"signal-bot/pkg/config"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// usageError marks errors that exit 2: bad configuration or flags.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "signal-bot:", err)
		// Exit 2: what a restart cannot mend, a setting or a damaged state
		// file; the line says what to do.
		if errors.As(err, new(usageError)) || errors.Is(err, store.ErrDamaged) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run() (err error) {
	fs := flag.NewFlagSet("signal-bot", flag.ContinueOnError)
	fs.Usage = func() { config.Usage(os.Stderr) }
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	log := slog.New(telemetry.NewLogHandler(slog.NewTextHandler(os.Stderr, nil)))
	ctx, stop := stopOnSignal(context.Background(), log)
	defer stop()

	cfg, err := config.Load(ctx, envconfig.OsLookuper())
	if err != nil {
		return usageError{err}
	}
	// config.Load refuses SIGNAL_NUMBER without SIGNAL_API_URL: the sandbox
	// runs only when neither is set, as on a fresh machine.
	sandbox := cfg.Signal.APIURL == ""
	if sandbox {
		if _, set := os.LookupEnv("STATE_PATH"); !set {
			cfg.State.Path = sandboxStatePath // never the production file by default
		}
		sb, err := startSandbox(ctx, &cfg, log, os.Stdin, os.Stdout)
		if err != nil {
			return err
		}
		defer func() { err = errors.Join(err, sb.Close()) }()
	}
	ln, err := activation.Listener(os.LookupEnv, os.Getpid())
	if err != nil {
		return err
	}
	for _, v := range []string{activation.EnvPID, activation.EnvFDs, activation.EnvFDNames} {
		os.Unsetenv(v) // not for any process this one starts
	}
	a, err := app.New(ctx, cfg, app.Options{Log: log, Version: version, Sandbox: sandbox, Listener: ln})
	if err != nil {
		return err
	}
	log.Info("signal-bot running", "version", version, "http", "http://"+a.HTTPAddr(), "limit", cfg.Pipeline.Limit, "queue_depth", cfg.Pipeline.QueueDepth)
	return a.Run(ctx)
}

// stopOnSignal returns a context that ends at the first SIGTERM, SIGINT or
// SIGHUP, which it logs: the bot then drains (docs/faults.md §2) and exits 0.
// SIGHUP is a drain too, not ignored: the bot has nothing to reload, a
// terminal's hangup means its session is gone, and under systemd the unit's
// Restart=always starts the bot again, rereading its env file
// (docs/operations.md §5). Later signals are caught and ignored while the
// bot drains.
func stopOnSignal(parent context.Context, log *slog.Logger) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, os.Interrupt, syscall.SIGHUP)
	go func() {
		select {
		case sig := <-sigs:
			name := map[os.Signal]string{syscall.SIGTERM: "SIGTERM", os.Interrupt: "SIGINT", syscall.SIGHUP: "SIGHUP"}[sig]
			log.Info("signal received: draining, then exiting", "signal", name)
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }
}
