package app

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/httpapi"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// listenAddr is the address the bot's endpoints will listen on, HTTP_ADDR or
// the address of the socket systemd passed, refused by checkAddr when the bot
// may not listen there without a token. A refused socket is closed.
func listenAddr(cfg config.Config, passed net.Listener) (string, error) {
	if passed == nil {
		return cfg.Server.Addr, checkAddr(cfg, cfg.Server.Addr)
	}
	addr := passed.Addr().String()
	if err := checkAddr(cfg, addr); err != nil {
		passed.Close()
		return "", fmt.Errorf("the socket systemd passed: %w", err)
	}
	return addr, nil
}

// checkAddr refuses an address the bot may not listen on without a token.
func checkAddr(cfg config.Config, addr string) error {
	if err := httpapi.CheckAddr(addr, cfg.Server.SelftestToken); err != nil {
		return err
	}
	if cfg.Signal.ReceiveMode == config.ReceiveWebhook {
		return httpapi.CheckWebhook(addr, cfg.Signal.WebhookToken)
	}
	return nil
}

// adopt makes the socket systemd passed the App's from the start: its closer,
// the first, closes it after a build error. Once the HTTP server serves on
// it, the server's shutdown closes it and reports the error, if any: the
// closer is then a no-op.
func adopt(passed net.Listener) (net.Listener, closer) {
	ln := &onceCloseListener{Listener: passed}
	return ln, func(context.Context) error { _ = ln.Close(); return nil }
}

// newServer builds the HTTP endpoints (httpapi.New, and the webhook's in
// webhook mode: receiver) and the server, on ln, the socket systemd passed,
// or else on a new socket on HTTP_ADDR. Its closer shuts the server down,
// which closes the socket.
func (a *App) newServer(addr string, ln net.Listener, d httpapi.Deps, base http.RoundTripper, sandbox bool) (closer, error) {
	handler := a.receiver(httpapi.New(a.cfg.Server, d), base, sandbox)
	if a.inherited {
		a.log.Info("HTTP socket from systemd socket activation; HTTP_ADDR not used", "addr", addr)
	} else {
		var err error
		if ln, err = net.Listen("tcp", a.cfg.Server.Addr); err != nil {
			return nil, fmt.Errorf("listen on HTTP_ADDR: %w", err)
		}
	}
	srv, ln := httpapi.NewServer(httpapi.Guard(addr, a.cfg.HTTPLimits.AllowedHosts, handler), ln, a.cfg.HTTPLimits, a.cfg.Server.SelftestTimeout)
	a.http, a.ln = srv, &onceCloseListener{Listener: ln}
	limit := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) { limit(c, s); a.conns.track(c, s) }
	if a.inherited {
		// One request per connection: a new connection always lands in the
		// socket's queue, which outlives this process, while a kept-alive one
		// dies with it and can take a POST written to it along.
		srv.SetKeepAlivesEnabled(false)
	}
	return srv.Shutdown, nil
}

// receiver picks how frames arrive (RECEIVE_MODE). In webhook mode it mounts the
// webhook endpoint beside the bot's other endpoints; the websocket is not used.
func (a *App) receiver(srv http.Handler, base http.RoundTripper, sandbox bool) http.Handler {
	if a.cfg.Signal.ReceiveMode != config.ReceiveWebhook {
		if !sandbox {
			a.log.Warn("receiving by websocket, which loses bursts: the REST API drops every message that arrives while it writes the previous one (a backlog after a restart arrives as one burst). " +
				"To lose none, set RECEIVE_MODE=webhook here and RECEIVE_WEBHOOK_URL on the REST API (docs/receive-modes.md)")
		}
		return srv
	}
	a.probe = signalapi.New(a.cfg.Signal.Config, &http.Client{Transport: base})
	a.hook = signalapi.NewWebhook(a.intake, signalapi.WebhookConfig{Token: a.cfg.Signal.WebhookToken, ReadBytes: a.cfg.Signal.WebhookReadBytes}, a.log)
	h := httpapi.MountWebhook(a.cfg.Signal.WebhookPath, a.hook, srv)
	a.log.Info("receiving by webhook: set RECEIVE_WEBHOOK_URL on the REST API", "path", a.cfg.Signal.WebhookPath)
	if a.cfg.Signal.WebhookToken == "" { // config refuses this while a frame can carry power
		a.log.Warn("webhook without WEBHOOK_TOKEN: any process that reaches it can post frames as anyone; none can carry power (ADMINS unset, OWNER_COMMANDS=off)", "path", a.cfg.Signal.WebhookPath)
	}
	return h
}

// webhookStats are the webhook's refusals for /healthz; nil in websocket
// mode.
func (a *App) webhookStats() *signalapi.WebhookStats {
	if a.hook == nil {
		return nil
	}
	s := a.hook.Stats()
	return &s
}

// webhookProbe is how often webhook mode checks that the REST API answers.
const webhookProbe = 5 * time.Second

// receive feeds the intake until ctx ends. In websocket mode it reads the
// websocket. In webhook mode the HTTP server takes the frames, and this only
// checks every webhookProbe that the REST API answers GET /v1/health (a call
// that does not go through signal-cli and that the REST API does not log),
// through an untraced client so the probe adds no traces.
func (a *App) receive(ctx context.Context) {
	if a.hook == nil {
		_ = a.api.Receive(ctx, a.log, a.intake)
		return
	}
	a.hook.Watch(ctx, webhookProbe, a.probe.Health)
}

// connected reports the websocket's state, or in webhook mode whether the REST
// API answered the last check.
func (a *App) connected() bool {
	if a.hook != nil {
		return a.hook.Connected()
	}
	return a.api.Connected()
}

// serve builds the HTTP server on addr (or the passed listener) with what
// New built, and exports the webhook's figures.
func (a *App) serve(addr string, passed net.Listener, p botParts, t transports, own *telemetry.OwnTime, reg *commands.Registry, sandbox bool) error {
	done, err := a.newServer(addr, passed, httpapi.Deps{
		Pipeline: a.intake, OwnTime: own, Connected: a.connected, Bot: a.bot, Standing: p.safety.account, Changes: p.changes, Groups: a.groups, Registry: reg,
		Account: a.cfg.Signal.Number, Log: a.log, Metrics: p.metrics.Handler(),
		State: p.state.store.Stats, Journal: p.state.journal.Stats, Heard: a.intake.Heard, Webhook: a.webhookStats,
		Sandbox: sandbox,
	}, t.base, sandbox)
	if err != nil {
		return err
	}
	a.closers = append(a.closers, done)
	if a.hook != nil {
		if err := p.metrics.ObserveWebhook(a.hook.Stats); err != nil {
			return fmt.Errorf("webhook metrics: %w", err)
		}
	}
	return nil
}
