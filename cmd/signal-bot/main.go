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
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
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

// stdio is where the process reads its settings and typed lines, and writes
// its screen and log.
type stdio struct {
	env    envconfig.Lookuper
	in     io.Reader
	out    io.Writer // the sandbox's screen
	errOut io.Writer // the log, outside the sandbox
}

func main() {
	tuneGC(os.LookupEnv)
	if err := run(context.Background(), os.Args[1:], stdio{env: envconfig.OsLookuper(), in: os.Stdin, out: os.Stdout, errOut: os.Stderr}); err != nil {
		fmt.Fprintln(os.Stderr, "signal-bot:", err)
		// Exit 2: what a restart cannot mend, a setting or a damaged state
		// file; the line says what to do.
		if errors.As(err, new(usageError)) || errors.Is(err, store.ErrDamaged) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(parent context.Context, args []string, sio stdio) (err error) {
	fs := flag.NewFlagSet("signal-bot", flag.ContinueOnError)
	fs.SetOutput(sio.errOut)
	fs.Usage = func() { config.Usage(sio.errOut) }
	settingsMD := fs.Bool("settings-md", false, "print docs/settings.md, generated from the settings' declarations, and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if *settingsMD {
		return config.SettingsMarkdown(sio.out)
	}
	if isSandbox(sio.env) {
		sio.env = sandboxEnv{sio.env}
	}
	cfg, err := config.Load(parent, sio.env)
	if err != nil {
		return usageError{err}
	}
	level, err := cfg.Log.SlogLevel()
	if err != nil {
		return usageError{err}
	}
	// config.Load refuses SIGNAL_NUMBER without SIGNAL_API_URL: the sandbox
	// runs only when neither is set, as on a fresh machine.
	opts := app.Options{Version: version, Sandbox: cfg.Signal.BaseURL == ""}
	logPath, closeLog, err := setLog(&opts, &cfg, sio, level)
	if err != nil {
		return err
	}
	defer closeLog() // after the sandbox and the bot: deferred first
	ctx, stop := stopOnSignal(parent, opts.Log)
	defer stop()
	var sb *sandbox
	if opts.Sandbox {
		if sb, err = startSandbox(ctx, &cfg, opts.Log, sio); err != nil {
			return err
		}
		defer func() { err = errors.Join(err, sb.Close()) }()
		opts.Served = sb.printServed
	}
	if opts.Listener, err = inheritedListener(); err != nil {
		return err
	}
	a, err := app.New(ctx, cfg, opts)
	if err != nil {
		return busyAddr(err, cfg.Server.Addr)
	}
	opts.Log.Info("signal-bot running", "version", version, "http", "http://"+a.HTTPAddr(), "limit", cfg.Pipeline.Limit, "queue_depth", cfg.Pipeline.QueueDepth)
	if sb != nil {
		sb.welcome(ctx, sio.in, cfg, a.HTTPAddr(), logPath, level)
	}
	return a.Run(ctx)
}

// setLog sets opts.Log: on standard error, or for the sandbox to the file
// beside its state (the sandbox's own, unless STATE_PATH is set), whose path
// it returns. Its closer closes the file.
func setLog(opts *app.Options, cfg *config.Config, sio stdio, level slog.Level) (string, func() error, error) {
	if !opts.Sandbox {
		opts.Log = newLogger(sio.errOut, level)
		return "", func() error { return nil }, nil
	}
	if _, set := sio.env.Lookup("STATE_PATH"); !set {
		cfg.State.Path = sandboxStatePath // never the production file by default
	}
	logPath := filepath.Join(filepath.Dir(cfg.State.Path), sandboxLogName)
	f, err := openLog(logPath)
	if err != nil {
		return "", nil, err
	}
	opts.Log = newLogger(f, level)
	return logPath, f.Close, nil
}

// busyAddr turns a listener that could not bind HTTP_ADDR, held by another
// process, into an exit-2 line naming the address and the setting; other
// errors pass as they are.
func busyAddr(err error, addr string) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return usageError{fmt.Errorf("HTTP_ADDR %s is in use by another process: stop it, or set HTTP_ADDR to a free address", addr)}
	}
	return err
}

// inheritedListener is the socket systemd passed (socket activation), or
// nil. The activation variables are unset so that no process this one starts
// takes them for its own.
func inheritedListener() (net.Listener, error) {
	ln, err := activation.Listener(os.LookupEnv, os.Getpid())
	if err != nil {
		return nil, err
	}
	for _, v := range []string{activation.EnvPID, activation.EnvFDs, activation.EnvFDNames} {
		os.Unsetenv(v)
	}
	return ln, nil
}

// newLogger is the bot's structured log on w, from level up, each line at
// most telemetry.MaxLogLine bytes.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	return slog.New(telemetry.NewLogHandler(slog.NewTextHandler(telemetry.CapLines(w), &slog.HandlerOptions{Level: level})))
}

// stopOnSignal returns a context that ends at the first SIGTERM, SIGINT or
// SIGHUP, which it logs: the bot then drains (docs/faults.md §2) and exits 0.
// SIGHUP is a drain too, not ignored: the bot has nothing to reload, a
// terminal's hangup means its session is gone, and under systemd the unit's
// Restart=always starts the bot again, rereading its env file
// (docs/operations.md#restarts-signals-and-upgrades). Later signals are caught and ignored while the
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
