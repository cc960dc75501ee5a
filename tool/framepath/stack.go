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

// stack is the bot against its own simulated REST API and fake upstreams.
type stack struct {
	sim  *sim.Sim
	up   *fakeup.Server
	bot  *app.App
	dir  string
	stop context.CancelFunc
	done chan error
}

// startStack starts the simulator, the fake upstreams and the bot with its
// defaults (picture pools off), and waits until the bot receives.
func startStack(webhook bool, log *slog.Logger) (_ *stack, err error) {
	s := &stack{sim: sim.New(sim.Config{Lossless: true}), up: fakeup.New(fakeup.Config{})}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.close())
		}
	}()
	apiURL, err := s.sim.Start("127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the simulator: %w", err)
	}
	if _, err := s.up.Start("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("start fake upstreams: %w", err)
	}
	if s.dir, err = os.MkdirTemp("", "framepath-"); err != nil {
		return nil, err
	}
	const hook = "/_webhook"
	vars := map[string]string{
		"SIGNAL_API_URL": apiURL, "SIGNAL_NUMBER": s.sim.Number(),
		"SIGNAL_GROUPS": "testbot=" + sim.TestGroup().ID(),
		"CAT_API_URL":   s.up.CatAPIURL(), "COMMONS_API_URL": s.up.CommonsAPIURL(),
		"UPSTREAM_ALLOW": s.up.Addr(), "POOL_SIZE_CAT": "0", "POOL_SIZE_KOT": "0",
		"HTTP_ADDR": "127.0.0.1:0", "STATE_PATH": filepath.Join(s.dir, "state.db"),
		"WEBHOOK_PATH": hook,
	}
	if webhook {
		vars["RECEIVE_MODE"] = "webhook"
	}
	if err := s.startBot(vars, log); err != nil {
		return nil, err
	}
	if webhook {
		return s, s.sim.SetWebhookURL("http://" + s.bot.HTTPAddr() + hook)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s, s.sim.WaitSubscribers(ctx, 1)
}

// startBot starts the bot configured by vars and waits (10 s at most)
// until /healthz answers 200.
func (s *stack) startBot(vars map[string]string, log *slog.Logger) error {
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(vars))
	if err != nil {
		return err
	}
	if s.bot, err = app.New(context.Background(), cfg, app.Options{Log: log, Version: "framepath"}); err != nil {
		return fmt.Errorf("start the bot: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan error, 1)
	go func() { s.done <- s.bot.Run(ctx) }()
	for range 1000 {
		if res, err := http.Get("http://" + s.bot.HTTPAddr() + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("bot not connected within 10 s")
}

// pomoc delivers one !pomoc in the group testbot and waits (30 s at most)
// until its reply was sent and the bot logged the frame served.
func (s *stack) pomoc(served <-chan struct{}) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.sim.Deliver(sim.Message{From: "+48600000001", Name: "Tester", Group: "testbot", Text: "!pomoc"}); err != nil {
		return fmt.Errorf("deliver !pomoc: %w", err)
	}
	if _, err := s.sim.WaitSent(ctx, 1); err != nil {
		return fmt.Errorf("wait for the reply: %w", err)
	}
	select {
	case <-served:
		return nil
	case <-ctx.Done():
		return errors.New("the frame was not logged served within 30 s")
	}
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
