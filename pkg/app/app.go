// Package app wires signal-bot together: configuration in, a running bot
// out. cmd/signal-bot and the end-to-end tests both start the bot through it.
package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/httpapi"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/metrics"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
	"signal-bot/pkg/upstream"
)

// Options are what configuration does not carry.
type Options struct {
	Log     *slog.Logger
	Version string
	// Sandbox is set when the REST API is the built-in simulator: the
	// websocket's burst warning is then no advice one could follow.
	Sandbox bool
	// Listener is the HTTP socket systemd passed (package activation); nil:
	// the bot listens on HTTP_ADDR. The App closes it.
	Listener net.Listener
	// Served, when set, is given the timing block of every frame that reached
	// a command, after its served line is logged (the sandbox prints it).
	Served func(telemetry.Block)
}

// App is one running bot.
type App struct {
	cfg      config.Config
	log      *slog.Logger
	tel      *telemetry.Telemetry
	shutdown func(context.Context) error
	store    *store.Store
	api      *signalapi.Client
	bot      *bot.Bot
	intake   *bot.Intake
	http     *http.Server
	ln       net.Listener
	base     *http.Transport
	upBase   *http.Transport // base under the fetch policy, for upstream calls
	metrics  *metrics.Metrics
	hook     *signalapi.Webhook // RECEIVE_MODE=webhook; nil: the websocket receives
	probe    *signalapi.Client  // webhook mode's check that the REST API answers, untraced
	sandbox  bool               // the REST API is the built-in simulator
	pictures map[string]commands.PictureSource
	gate     *outbound.Gate
	audience *bot.Audience
	// stopPictures stops the picture pools' refills; before the tracer
	// provider shuts down, since refill spans end on the way.
	stopPictures func(context.Context) error

	// inherited: ln is a socket that outlives the process (socket activation).
	inherited bool
	groups    bot.Groups // to check once serving, when inherited; and ANSWER_IN's members
	conns     connTracker

	journal *journal.Journal
	left    []journal.Entry // what the last process left in the journal, replayed by Run
}

// webhookProbe is how often webhook mode checks that the REST API answers.
const webhookProbe = 5 * time.Second

// New builds the bot from cfg: it opens the state file, sets up tracing,
// checks the REST API's mode and resolves the configured groups. Nothing
// runs until Run.
func New(ctx context.Context, cfg config.Config, o Options) (_ *App, err error) {
	addr := cfg.Server.Addr
	if o.Listener != nil {
		addr = o.Listener.Addr().String()
	}
	if err := checkAddr(cfg, addr); err != nil {
		if o.Listener != nil {
			o.Listener.Close()
			err = fmt.Errorf("the socket systemd passed: %w", err)
		}
		return nil, err
	}
	a := &App{cfg: cfg, log: o.Log, sandbox: o.Sandbox, ln: o.Listener, inherited: o.Listener != nil}
	defer func() { // a, not the named result: that is nil on the error path
		if err != nil {
			a.closeAll(context.Background())
		}
	}()
	var own *telemetry.OwnTime // its blocks go to the metrics, which read its figures
	if a.metrics, err = metrics.New(metrics.Sources{
		Pipeline: func() (int64, int64, int, int) {
			s := a.intake.Stats()
			return s.Accepted, s.Dropped, s.Depth, s.Active
		},
		Evicted:    func() uint64 { return own.Stats().Evicted },
		Connected:  func() bool { return a.connected() },
		Reconnects: func() int64 { return a.api.Reconnects() },
		Pool: func() map[string]metrics.PoolStats {
			out := map[string]metrics.PoolStats{}
			for cmd, ps := range poolStats(a.pictures) {
				out[cmd] = metrics.PoolStats{Hits: int64(ps.Hits), Misses: int64(ps.Misses), RefillErrors: int64(ps.RefillErrors), Ready: ps.Ready}
			}
			return out
		},
		Drops: func() map[string]int64 {
			s := a.intake.Stats()
			return map[string]int64{"queue_full": s.DroppedFull, "sender_queue": s.DroppedSender, "queue_bytes": s.DroppedBytes}
		},
		PausedUntil: func() time.Time { return a.gate.PausedUntil(time.Now()) },
	}, o.Log, o.Served); err != nil {
		return nil, err
	}
	own = telemetry.NewOwnTime(telemetry.OwnTimeConfig{OnBlock: a.metrics.Served})
	if a.tel, a.shutdown, err = telemetry.Setup(ctx, telemetry.Config{Version: o.Version, Logger: o.Log}, own); err != nil {
		return nil, fmt.Errorf("set up tracing: %w", err)
	}
	tp := a.tel.Provider
	if a.store, err = store.Open(cfg.State, a.log); err != nil {
		return nil, err
	}
	left := journal.Left{}
	jcfg := cfg.Journal
	jcfg.MaxSeen = bot.RecentSize
	if a.journal, left, err = journal.Open(a.store, jcfg); err != nil {
		return nil, err
	}
	a.left = left.Frames
	if err := a.metrics.ObserveJournal(func() metrics.JournalStats {
		s := a.journal.Stats()
		return metrics.JournalStats{Pending: s.Pending, Replayed: s.Replayed, TooOld: s.TooOld, Full: s.Full, Refused: s.Refused}
	}); err != nil {
		return nil, fmt.Errorf("journal metrics: %w", err)
	}
	hashKey, err := a.store.Secret("sender-hash-key", func() ([]byte, error) {
		k := make([]byte, 32)
		_, err := rand.Read(k)
		return k, err
	})
	if err != nil {
		return nil, err
	}
	base := baseTransport(cfg.Pipeline.Limit)
	a.base = base
	a.api = signalapi.New(cfg.Signal.Config, &http.Client{Transport: telemetry.NewTransport(base, tp, telemetry.LegSend)})
	about, err := a.api.CheckMode(ctx)
	if err != nil {
		return nil, err
	}
	a.logAbout(about)
	groups, err := resolveGroups(cfg.Commands)
	if err != nil {
		return nil, err
	}
	a.groups = groups
	if a.audience, err = bot.NewAudience(cfg.Bot.AnswerIn, groups); err != nil {
		return nil, err
	}
	a.gate = outbound.New(cfg.Safety.Config)
	if !a.inherited {
		a.checkGroups(ctx, groups)
	}
	// else Run checks them once it serves: a webhook POST queued on the socket
	// holds the REST API's read loop, which carries the answer to this call,
	// until this process accepts it.
	policy, _ := upstream.NewPolicy(cfg.Upstreams.Allow, nil) // checked by config.Load
	a.upBase = policy.Transport(base)
	upstreamClient := &http.Client{
		Transport:     telemetry.NewTransport(policy.RoundTripper(a.upBase), tp, telemetry.LegUpstream),
		CheckRedirect: policy.CheckRedirect,
	}
	pics, stopPictures, err := startPictures(ctx, cfg, tp, a.log, upstreamClient)
	if err != nil {
		return nil, err
	}
	a.stopPictures, a.pictures = stopPictures, pics
	overrides := bot.NewOverrides()
	reg, err := buildRegistry(cfg, groups, overrides, a.store, pics)
	if err != nil {
		return nil, err
	}
	typing := typer(cfg, base, tp)
	a.bot = bot.New(bot.Deps{
		API: a.api, Registry: reg, Store: a.store, Overrides: overrides, Groups: groups, Tracer: tp, Log: a.log,
		HashKey: hashKey, Recorder: a.metrics,
		Gate: a.gate, Audience: a.audience, QuietWindow: cfg.Bot.QuietWindow,
		QuoteReplies: bot.QuoteModeOf(cfg.Bot.QuoteReplies), Texts: commands.TextsFor(cfg.Commands.ReplyLang),
		ChallengeURL: cfg.Signal.BaseURL + "/v1/accounts/" + url.PathEscape(cfg.Signal.Number) + "/rate-limit-challenge",
		Typing:       typing, TypingBudget: a.gate,
		Seen: left.SeenSince(time.Now().Add(-cfg.Journal.ReplayMaxAge)),
	})
	if err := a.metrics.ObserveHealth(a.healthStats); err != nil {
		return nil, fmt.Errorf("health metrics: %w", err)
	}
	a.intake = bot.NewIntake(a.bot, a.journal, cfg.Pipeline.Config)
	srv := httpapi.New(cfg.Server, httpapi.Deps{
		Pipeline: a.intake, OwnTime: own, Connected: a.connected, Bot: a.bot, Groups: groups, Registry: reg,
		Account: cfg.Signal.Number, Log: a.log, Metrics: a.metrics.Handler(),
		State: a.store.Stats, Journal: a.journal.Stats,
	})
	handler, err := a.receiver(srv)
	if err != nil {
		return nil, err
	}
	ln := a.ln
	if a.inherited {
		a.log.Info("HTTP socket from systemd socket activation; HTTP_ADDR not used", "addr", addr)
	} else if ln, err = net.Listen("tcp", cfg.Server.Addr); err != nil {
		return nil, fmt.Errorf("listen on HTTP_ADDR: %w", err)
	}
	a.http, ln = httpapi.NewServer(httpapi.Guard(addr, cfg.HTTPLimits.AllowedHosts, handler), ln, cfg.HTTPLimits, cfg.Server.SelftestTimeout)
	a.ln = &onceCloseListener{Listener: ln}
	limit := a.http.ConnState
	a.http.ConnState = func(c net.Conn, s http.ConnState) { limit(c, s); a.conns.track(c, s) }
	if a.inherited {
		// One request per connection: a new connection always lands in the
		// socket's queue, which outlives this process, while a kept-alive one
		// dies with it and can take a POST written to it along.
		a.http.SetKeepAlivesEnabled(false)
	}
	return a, nil
}

// checkAddr refuses an address the bot may not listen on without a token:
// HTTP_ADDR, or the address of the socket systemd passed.
func checkAddr(cfg config.Config, addr string) error {
	if err := httpapi.CheckAddr(addr, cfg.Server.SelftestToken); err != nil {
		return err
	}
	if cfg.Signal.ReceiveMode == config.ReceiveWebhook {
		return httpapi.CheckWebhook(addr, cfg.Signal.WebhookToken)
	}
	return nil
}

// HTTPAddr is the address the bot's endpoints listen on.
func (a *App) HTTPAddr() string { return a.ln.Addr().String() }

// Run receives and answers frames until ctx ends, then shuts down: it stops
// reading (in webhook mode: once the accepted frames have finished, see
// drainWebhook), lets accepted frames finish within SHUTDOWN_TIMEOUT, flushes
// the spans and closes the state file.
func (a *App) Run(ctx context.Context) error {
	ctx, stop := context.WithCancel(ctx) // also stops receiving if the HTTP server fails
	defer stop()
	done := make(chan struct{})
	go func() { defer close(done); a.intake.Run() }()
	a.intake.Replay(ctx, a.left, a.cfg.Journal.ReplayMaxAge)
	a.left = nil
	httpErr := make(chan error, 1)
	go func() { httpErr <- a.http.Serve(a.ln) }()
	checked := make(chan struct{})
	go func() {
		defer close(checked)
		if a.inherited {
			a.checkGroups(ctx, a.groups)
		}
	}()
	recvDone := make(chan struct{})
	go func() {
		defer close(recvDone)
		a.receive(ctx)
	}()
	membersDone := make(chan struct{})
	go func() {
		defer close(membersDone)
		a.keepMembers(ctx)
	}()
	var err error
	select {
	case <-ctx.Done():
	case err = <-httpErr:
		err = fmt.Errorf("serve HTTP: %w", err)
		stop()
	}
	a.log.Info("shutting down", "queued", a.intake.Stats().Depth, "active", a.intake.Stats().Active)
	<-recvDone
	<-membersDone
	sctx, cancel := context.WithTimeout(context.Background(), a.cfg.Pipeline.ShutdownTimeout)
	defer cancel()
	if a.hook != nil {
		a.drainWebhook(sctx)
	}
	a.intake.Close()
	if cut := a.intake.Wait(sctx); cut > 0 {
		a.log.Warn("frames cut off at shutdown", "count", cut)
	}
	<-done
	<-checked
	// Flushing the spans and closing get a budget of their own: SHUTDOWN_TIMEOUT
	// may be spent by now, and the spans of the frames it cut must still leave.
	cctx, ccancel := context.WithTimeout(context.Background(), closeTimeout)
	defer ccancel()
	a.bot.WaitTyping(cctx) // the last replies' typing indicators are cleared
	return errors.Join(err, a.closeAll(cctx))
}

// closeTimeout bounds the flush of spans and the closing after the frames
// have finished or been cut off.
const closeTimeout = 5 * time.Second

func (a *App) closeAll(ctx context.Context) error {
	var errs []error
	if a.http != nil {
		errs = append(errs, a.http.Shutdown(ctx))
	} else if a.ln != nil {
		errs = append(errs, a.ln.Close())
	}
	if a.stopPictures != nil {
		errs = append(errs, a.stopPictures(ctx))
	}
	if a.shutdown != nil {
		errs = append(errs, a.shutdown(ctx))
	}
	if a.base != nil {
		a.base.CloseIdleConnections()
	}
	if a.upBase != nil {
		a.upBase.CloseIdleConnections()
	}
	if a.store != nil {
		errs = append(errs, a.store.Close())
	}
	if a.metrics != nil {
		errs = append(errs, a.metrics.Shutdown(ctx))
	}
	return errors.Join(errs...)
}

func baseTransport(limit int) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 2 * limit
	t.ResponseHeaderTimeout = 0 // sends are slow; each call has its own deadline
	return t
}

// receiver picks how frames arrive (RECEIVE_MODE). In webhook mode it mounts the
// webhook endpoint beside the bot's other endpoints; the websocket is not used.
func (a *App) receiver(srv http.Handler) (http.Handler, error) {
	if a.cfg.Signal.ReceiveMode != config.ReceiveWebhook {
		if !a.sandbox {
			a.log.Warn("receiving by websocket, which loses bursts: the REST API drops every message that arrives while it writes the previous one (a backlog after a restart arrives as one burst). " +
				"To lose none, set RECEIVE_MODE=webhook here and RECEIVE_WEBHOOK_URL on the REST API (docs/receive-modes.md)")
		}
		return srv, nil
	}
	a.probe = signalapi.New(a.cfg.Signal.Config, &http.Client{Transport: a.base})
	a.hook = signalapi.NewWebhook(a.intake, a.cfg.Signal.WebhookToken, a.log)
	h := httpapi.MountWebhook(a.cfg.Signal.WebhookPath, a.hook, srv)
	a.log.Info("receiving by webhook: set RECEIVE_WEBHOOK_URL on the REST API", "path", a.cfg.Signal.WebhookPath)
	return h, nil
}

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
