package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/app"
	"signal-bot/pkg/config"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// stack is one bot against its own simulated REST API and fake upstreams,
// all on loopback, with the measured latency profiles.
type stack struct {
	name string
	sim  *sim.Sim
	up   *fakeup.Server
	bot  *app.App
	dir  string
	stop context.CancelFunc
	done chan error
}

// startStack starts the simulator (sim.DefaultLatency), the fake upstreams
// (fakeup.DefaultLatency) and a bot configured by env on top of the
// defaults, and waits until the bot is connected.
func startStack(name string, env map[string]string, log *slog.Logger) (_ *stack, err error) {
	s := &stack{name: name,
		sim: sim.New(sim.Config{Latency: sim.DefaultLatency(), Lossless: true}),
		up:  fakeup.New(fakeup.Config{Latency: fakeup.DefaultLatency(), Seed: 1}),
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.close())
		}
	}()
	apiURL, err := s.sim.Start("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if _, err := s.up.Start("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("start fake upstreams: %w", err)
	}
	if s.dir, err = os.MkdirTemp("", "picturebench-"); err != nil {
		return nil, err
	}
	vars := map[string]string{
		"SIGNAL_API_URL": apiURL, "SIGNAL_NUMBER": s.sim.Number(),
		"SIGNAL_GROUPS": "testbot=" + sim.TestGroup().ID(),
		"CAT_API_URL":   s.up.CatAPIURL(), "COMMONS_API_URL": s.up.CommonsAPIURL(),
		"HTTP_ADDR": "127.0.0.1:0", "STATE_PATH": filepath.Join(s.dir, "state.db"),
		"COOLDOWNS": "cat=0s,kot=0s", "SELFTEST_RATE": "1000",
		"UPSTREAM_ALLOW": s.up.Addr(),
	}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(vars))
	if err != nil {
		return nil, err
	}
	if s.bot, err = app.New(context.Background(), cfg, app.Options{Log: log.With("stack", name), Version: "picturebench"}); err != nil {
		return nil, fmt.Errorf("start the bot (%s): %w", name, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan error, 1)
	go func() { s.done <- s.bot.Run(ctx) }()
	return s, s.waitConnected()
}

// url is the bot's own HTTP base URL.
func (s *stack) url() string { return "http://" + s.bot.HTTPAddr() }

// waitConnected polls /healthz for up to 10 s.
func (s *stack) waitConnected() error {
	for range 1000 {
		if res, err := http.Get(s.url() + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("%s: bot not connected within 10 s", s.name)
}

// waitPoolFilled waits, up to 20 s, until the fake Cat API has served n
// downloads and the last of them has had time to be shrunk.
func (s *stack) waitPoolFilled(n int) error {
	for range 2000 {
		if s.up.Requests(fakeup.TargetCatDownload) >= n {
			time.Sleep(500 * time.Millisecond) // the shrink of the last picture
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("%s: the pool did not fill within 20 s", s.name)
}

// close stops the bot, then the servers, and removes the state file.
func (s *stack) close() error {
	var errs []error
	if s.stop != nil {
		s.stop()
		errs = append(errs, <-s.done)
	}
	errs = append(errs, s.sim.Close(), s.up.Close())
	if s.dir != "" {
		errs = append(errs, os.RemoveAll(s.dir))
	}
	return errors.Join(errs...)
}
