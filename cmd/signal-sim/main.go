// Command signal-sim serves the simulated signal-cli-rest-api (json-rpc mode) of package sim,
// by default on 127.0.0.1:9922, so a bot started with SIGNAL_API_URL=http://127.0.0.1:9922
// talks to it as to the real container. The control endpoints are under /_sim/.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"signal-bot/pkg/sim"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "signal-sim:", err)
		os.Exit(1)
	}
}

// options are the command-line flags.
type options struct {
	addr, number, latency, shape, logLevel string
	limits, version                        string
	lossless                               bool
	ping                                   time.Duration
	seed                                   uint64
}

// parseFlags reads the flags from args.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("signal-sim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:9922", "listen address")
	fs.StringVar(&o.number, "number", sim.DefaultNumber, "the bot's account number")
	fs.StringVar(&o.latency, "latency", "default", "latency profile: default or zero")
	fs.StringVar(&o.limits, "limits", "", "Signal's rate limits in /v2/send: signal or off (default: signal, off with -latency zero)")
	fs.StringVar(&o.shape, "send-shape", "object", "201 body of /v2/send: object (released) or array (master)")
	fs.BoolVar(&o.lossless, "lossless", false, "never drop frames while a client's writer is busy")
	fs.DurationVar(&o.ping, "ping", sim.DefaultPingInterval, "websocket ping interval")
	fs.StringVar(&o.version, "version", sim.Version, `the release GET /v1/about reports ("unset": a build from source)`)
	fs.Uint64Var(&o.seed, "seed", 1, "seed of probabilistic faults and attachment ids")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	err := fs.Parse(args)
	return o, err
}

// run serves until SIGINT or SIGTERM, then shuts the simulator down.
func run(ctx context.Context, args []string, stderr io.Writer) (err error) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("parse -log-level: %w", err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	lat, err := sim.LatencyProfile(o.latency)
	if err != nil {
		return fmt.Errorf("parse -latency: %w", err)
	}
	if o.limits == "" {
		o.limits = "signal"
		if o.latency == "zero" {
			o.limits = "off" // benchmarks: the bot's throughput, not Signal's
		}
	}
	lim, err := sim.LimitsProfile(o.limits)
	if err != nil {
		return fmt.Errorf("parse -limits: %w", err)
	}
	var shape sim.SendShape
	if err := shape.UnmarshalText([]byte(o.shape)); err != nil {
		return fmt.Errorf("parse -send-shape: %w", err)
	}

	s := sim.New(sim.Config{
		Number: o.number, Latency: lat, Limits: lim, PingInterval: o.ping, Lossless: o.lossless,
		SendShape: shape, Seed: o.seed, Version: o.version, Logger: log,
	})
	defer func() { err = errors.Join(err, s.Close()) }()
	url, err := s.Start(o.addr)
	if err != nil {
		return err
	}
	for _, g := range s.Groups() {
		log.Info("group", "alias", g.Alias, "name", g.Name, "id", g.ID(), "internal_id", g.InternalID)
	}
	log.Info("ready", "url", url, "latency", o.latency, "limits", o.limits, "lossless", o.lossless)
	<-ctx.Done()
	log.Info("shutting down")
	return nil
}
