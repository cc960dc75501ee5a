package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"

	"signal-bot/pkg/config"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// sandboxUser is who the lines typed on standard input come from.
const sandboxUser = "+48500000123"

// sandboxStatePath is the sandbox's state file when STATE_PATH is not set:
// beside the production default, never it.
const sandboxStatePath = "state/sandbox.db"

// sandbox is the simulated REST API and picture upstreams the bot runs
// against when no real signal-cli-rest-api is configured.
type sandbox struct {
	sim    *sim.Sim
	up     *fakeup.Server
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// startSandbox starts the simulator and the fake upstreams on loopback, points
// cfg at them, and starts the stdin → message and send → stdout loops.
func startSandbox(ctx context.Context, cfg *config.Config, log *slog.Logger, in io.Reader, out io.Writer) (*sandbox, error) {
	lat, lim := sim.DefaultLatency(), sim.SignalLimits()
	upLat := fakeup.DefaultLatency()
	if os.Getenv("SANDBOX_LATENCY") == "zero" {
		// Benchmarks measure the bot, not Signal: no latency and no rate limits.
		lat, lim, upLat = sim.ZeroLatency(), sim.Limits{}, fakeup.Latency{}
	}
	s := sim.New(sim.Config{Latency: lat, Limits: lim, Lossless: true, Logger: log.With("component", "signal-sim")})
	simURL, err := s.Start("127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start sandbox simulator: %w", err)
	}
	up := fakeup.New(fakeup.Config{Latency: upLat})
	if _, err := up.Start("127.0.0.1:0"); err != nil {
		s.Close()
		return nil, fmt.Errorf("start sandbox upstreams: %w", err)
	}
	tg := sim.TestGroup()
	cfg.Signal.BaseURL, cfg.Signal.Number = simURL, s.Number()
	if cfg.Commands.Groups == nil {
		cfg.Commands.Groups = map[string]string{}
	}
	cfg.Commands.Groups[tg.Alias] = tg.ID()
	cfg.Upstreams.CatAPIURL, cfg.Upstreams.CommonsAPIURL = up.CatAPIURL(), up.CommonsAPIURL()
	// The fakes are plain http on loopback: allowed by their exact address,
	// which leaves the fetch policy as strict as in production for the rest.
	cfg.Upstreams.Allow = append(cfg.Upstreams.Allow, up.Addr())

	fmt.Fprintf(out, `== signal-bot SANDBOX ==
Neither SIGNAL_API_URL nor SIGNAL_NUMBER is set, so the bot runs against its
built-in simulated signal-cli-rest-api (%s) and fake picture
upstreams, with its state in %s.
Type a message and press Enter: it comes from %s in the group %q.
Try !pomoc, !ja, !cat, !kot. Replies are printed below. Ctrl-C stops.
To use a real signal-cli-rest-api (json-rpc mode):
  SIGNAL_API_URL=http://127.0.0.1:8080 SIGNAL_NUMBER=+48… go run ./cmd/signal-bot
Run signal-bot -h for every setting.

`, simURL, cfg.State.Path, sandboxUser, tg.Alias)

	ctx, cancel := context.WithCancel(ctx)
	sb := &sandbox{sim: s, up: up, cancel: cancel}
	sb.wg.Add(1)
	go func() { defer sb.wg.Done(); sb.printReplies(ctx, out) }()
	go sb.readLines(ctx, in, log) // not waited for: a read on stdin cannot be interrupted
	return sb, nil
}

// readLines turns each line into a message; end of input does not stop the bot.
func (sb *sandbox) readLines(ctx context.Context, in io.Reader, log *slog.Logger) {
	// Like the real REST API, the simulator drops what arrives while no client
	// is connected: wait for the bot's websocket before the first line.
	if err := sb.sim.WaitSubscribers(ctx, 1); err != nil {
		return
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() && ctx.Err() == nil {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if _, err := sb.sim.Deliver(sim.Message{From: sandboxUser, Name: "Ty", Group: sim.TestGroup().Alias, Text: line}); err != nil {
			log.Warn("sandbox message not delivered", "err", err)
		}
	}
	if ctx.Err() == nil {
		log.Info("end of standard input; the bot keeps running until Ctrl-C or SIGTERM")
	}
}

// printReplies prints every /v2/send the simulator receives.
func (sb *sandbox) printReplies(ctx context.Context, out io.Writer) {
	for n := 1; ; n++ {
		sent, err := sb.sim.WaitSent(ctx, n)
		if err != nil {
			return
		}
		m := sent[n-1]
		to := strings.Join(m.Recipients, ",")
		if to == sim.TestGroup().ID() {
			to = sim.TestGroup().Alias
		}
		fmt.Fprintf(out, "bot → %s: %s\n", to, strings.ReplaceAll(m.Message, "\n", "\n    "))
		for _, a := range m.Attachments {
			fmt.Fprintf(out, "    [picture %s %s, %d bytes, %dx%d]\n", a.Filename, a.MIME, a.Size, a.Width, a.Height)
		}
	}
}

// Close stops the sandbox's loops and servers.
func (sb *sandbox) Close() error {
	sb.cancel()
	sb.wg.Wait()
	return errors.Join(sb.up.Close(), sb.sim.Close())
}
