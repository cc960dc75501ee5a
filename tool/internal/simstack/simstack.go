// Package simstack starts the bot against its own simulated REST API (pkg/sim)
// and fake picture upstreams (pkg/fakeup), all on loopback and in this
// process, for the tools that measure it. It is pkg/botest without a
// testing.T: errors are returned, and Close undoes what Start did.
package simstack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/app"
	"signal-bot/pkg/config"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// Config is what to start.
type Config struct {
	Sim sim.Config    // the simulated REST API
	Up  fakeup.Config // the fake upstreams
	// Env is the bot's settings over the stack's own: the simulator's URL
	// and number, the group testbot, the upstreams' URLs (allowed by
	// UPSTREAM_ALLOW), HTTP_ADDR on a free loopback port and a state file
	// in a temporary folder.
	Env map[string]string
	// Webhook receives by webhook (RECEIVE_MODE=webhook, the simulator
	// posting to the bot's WEBHOOK_PATH) instead of the websocket.
	Webhook bool
	Log     *slog.Logger // the bot's log; nil discards
	Name    string       // names the temporary folder, the bot's version and errors
}

// webhookToken is the WEBHOOK_TOKEN of a webhook stack whose Env sets none:
// the bot refuses webhook mode without one while a frame can carry power.
const webhookToken = "simstack-webhook-token-0123456789abcdef"

// Stack is a started bot with its simulator and upstreams.
type Stack struct {
	Sim  *sim.Sim
	Up   *fakeup.Server
	Bot  *app.App
	name string
	dir  string
	stop context.CancelFunc
	done chan error
}

// Start starts the simulator, the fake upstreams and the bot, and waits
// (10 s at most each) until /healthz answers 200 and, by websocket, the
// simulator has the bot's subscription.
func Start(cfg Config) (_ *Stack, err error) {
	s := &Stack{Sim: sim.New(cfg.Sim), Up: fakeup.New(cfg.Up), name: cfg.Name}
	defer func() {
		if err != nil {
			err = errors.Join(fmt.Errorf("%s: %w", s.name, err), s.Close())
		}
	}()
	vars, err := s.servers()
	if err != nil {
		return nil, err
	}
	for k, v := range cfg.Env {
		vars[k] = v
	}
	if cfg.Webhook {
		vars["RECEIVE_MODE"] = config.ReceiveWebhook
		if _, set := vars["WEBHOOK_TOKEN"]; !set {
			vars["WEBHOOK_TOKEN"] = webhookToken
		}
	}
	if err := s.startBot(vars, cfg.Log); err != nil {
		return nil, err
	}
	if cfg.Webhook {
		c, err := config.Load(context.Background(), envconfig.MapLookuper(vars))
		if err != nil {
			return nil, err
		}
		u := s.URL() + c.Signal.WebhookPath
		if c.Signal.WebhookToken != "" {
			u += "?" + url.Values{"token": {c.Signal.WebhookToken}}.Encode()
		}
		return s, s.Sim.SetWebhookURL(u)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s, s.Sim.WaitSubscribers(ctx, 1)
}

// servers starts the simulator and the upstreams and makes the state's
// folder; it returns the bot's settings for them.
func (s *Stack) servers() (map[string]string, error) {
	apiURL, err := s.Sim.Start("127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the simulator: %w", err)
	}
	if _, err := s.Up.Start("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("start fake upstreams: %w", err)
	}
	if s.dir, err = os.MkdirTemp("", s.name+"-"); err != nil {
		return nil, err
	}
	return map[string]string{
		"SIGNAL_API_URL": apiURL, "SIGNAL_NUMBER": s.Sim.Number(),
		"SIGNAL_GROUPS": "testbot=" + sim.TestGroup().ID(),
		"CAT_API_URL":   s.Up.CatAPIURL(), "COMMONS_API_URL": s.Up.CommonsAPIURL(),
		"UPSTREAM_ALLOW": s.Up.Addr(),
		"HTTP_ADDR":      "127.0.0.1:0", "STATE_PATH": filepath.Join(s.dir, "state.db"),
	}, nil
}

// startBot starts the bot configured by vars and waits (10 s at most)
// until /healthz answers 200.
func (s *Stack) startBot(vars map[string]string, log *slog.Logger) error {
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(vars))
	if err != nil {
		return err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if s.Bot, err = app.New(context.Background(), cfg, app.Options{Log: log, Version: s.name}); err != nil {
		return fmt.Errorf("start the bot: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan error, 1)
	go func() { s.done <- s.Bot.Run(ctx) }()
	for range 1000 {
		if res, err := http.Get(s.URL() + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	return errors.New("bot not connected within 10 s")
}

// URL is the bot's own HTTP base URL.
func (s *Stack) URL() string { return "http://" + s.Bot.HTTPAddr() }

// Close stops the bot, then the servers, and removes the state's folder.
func (s *Stack) Close() error {
	var errs []error
	if s.stop != nil {
		s.stop()
		errs = append(errs, <-s.done)
		s.stop = nil
	}
	errs = append(errs, s.Sim.Close(), s.Up.Close())
	if s.dir != "" {
		errs = append(errs, os.RemoveAll(s.dir))
		s.dir = ""
	}
	return errors.Join(errs...)
}
