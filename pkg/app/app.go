// Package app wires signal-bot together: configuration in, a running bot
// out. cmd/signal-bot and the end-to-end tests both start the bot through it.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/owncmds"
	"signal-bot/pkg/schedule"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
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
	// Commands are added to the bot's own (tests: a command that panics or
	// hangs); nil in the program.
	Commands []*commands.Command
	// Clock is what the scheduled posts (SCHEDULE) read the time from; nil:
	// the system's clock. Tests move it.
	Clock schedule.Clock
}

// App is one running bot: what Run needs, and the closers of what New built.
type App struct {
	cfg    config.Config
	log    *slog.Logger
	api    *signalapi.Client
	bot    *bot.Bot
	intake *bot.Intake
	sched  *schedule.Scheduler // SCHEDULE's posts
	store  *store.Store        // pruned every store.PruneEvery (prune.go)
	left   []journal.Entry     // what the last process left in the journal, replayed by Run
	http   *http.Server
	ln     net.Listener
	hook   *signalapi.Webhook // RECEIVE_MODE=webhook; nil: the websocket receives
	probe  *signalapi.Client  // webhook mode's check that the REST API answers, untraced
	conns  connTracker
	// inherited: ln is a socket that outlives the process (socket activation).
	inherited bool
	groups    bot.Groups // to check once serving, when inherited; and ANSWER_IN's members
	audience  *bot.Audience
	// panicked counts a panic recovered in a background loop (guard).
	panicked func(name string)
	// closers close what New built, in reverse build order (close).
	closers []closer
}

// closer closes one part New built.
type closer = func(context.Context) error

// New builds the bot from cfg: it opens the state file, sets up tracing,
// checks the REST API's mode and resolves the configured groups. Each builder
// returns what it built and its closer; a build error runs the closers of
// what was built. Nothing runs until Run.
func New(ctx context.Context, cfg config.Config, o Options) (_ *App, err error) {
	addr, err := listenAddr(cfg, o.Listener)
	if err != nil {
		return nil, err
	}
	a := &App{cfg: cfg, log: o.Log, inherited: o.Listener != nil}
	var passed net.Listener
	if a.inherited {
		var done closer
		passed, done = adopt(o.Listener)
		a.closers = append(a.closers, done)
	}
	defer func() { // a, not the named result: that is nil on the error path
		if err != nil {
			_ = a.close(context.Background())
		}
	}()
	g := &gauges{connected: a.connected}
	p, t, own, err := a.buildBase(ctx, cfg, o, g)
	if err != nil {
		return nil, err
	}
	a.panicked = func(name string) { p.metrics.Panicked("background:" + name) }
	if a.api, err = connectAPI(ctx, cfg, t.base, p.tp, a.log); err != nil {
		return nil, err
	}
	if p.safety, err = newSafety(cfg, a.api, p); err != nil {
		return nil, err
	}
	a.groups, a.audience = p.safety.groups, p.safety.audience
	var listed []signalapi.Group
	if !a.inherited {
		listed = a.checkGroups(ctx, a.groups)
	}
	// else Run checks them once it serves: a webhook POST queued on the socket
	// holds the REST API's read loop, which carries the answer to this call,
	// until this process accepts it.
	pics, mine, err := a.startCommands(ctx, cfg, t, p)
	if err != nil {
		return nil, err
	}
	p.api, p.pictures, p.commands, p.version, p.up = a.api, pics, append(mine, o.Commands...), o.Version, a.connected
	if p.changes, err = loadChanges(p.state.store, p.safety.groups, a.log); err != nil {
		return nil, err
	}
	var reg *commands.Registry
	if a.bot, a.intake, reg, err = newBot(cfg, p); err != nil {
		return nil, err
	}
	a.bot.LearnSelf(listed)
	g.intake, g.api, g.pictures, g.gate = a.intake, a.api, pics, p.safety.gate
	a.store = p.state.store
	if err := a.buildAbove(cfg, o.Clock, &p, reg); err != nil {
		return nil, err
	}
	if err := a.serve(addr, passed, p, t, own, reg, o.Sandbox); err != nil {
		return nil, err
	}
	return a, nil
}

// startCommands starts the picture sources of !cat and !kot and builds the
// commands of COMMANDS_FILE (their pictures under the same decode budget);
// the closers of both join a's.
func (a *App) startCommands(ctx context.Context, cfg config.Config, t transports, p botParts) (
	map[string]commands.PictureSource, []*commands.Command, error,
) {
	pics, prep, done, err := startPictures(ctx, cfg, t, p.tp, a.log, a.panicked)
	if err != nil {
		return nil, nil, err
	}
	a.closers = append(a.closers, done)
	mine, done, err := ownCommands(cfg, ownParts{tp: p.tp, base: t.base, pictures: prep, key: p.state.hookKey, metrics: p.metrics, groups: a.groups})
	if err != nil {
		return nil, nil, err
	}
	a.closers = append(a.closers, done)
	return pics, mine, nil
}

// buildAbove builds what sits above the bot: the text commands made in
// chat (into reg), the scheduled posts and the admins' console, which the
// bot gets before Run.
func (a *App) buildAbove(cfg config.Config, clock schedule.Clock, p *botParts, reg *commands.Registry) error {
	var err error
	if p.texts, err = owncmds.LoadChatTexts(p.state.store, reg, cfg.Commands.ReplyLang, a.log); err != nil {
		return err
	}
	if a.sched, err = newScheduler(cfg, clock, *p, reg, a.intake); err != nil {
		return err
	}
	console, err := newConsole(cfg, *p, reg, a.bot, a.intake, a.sched)
	if err != nil {
		return err
	}
	a.bot.SetConsole(console)
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
	checked := a.loop(ctx, "groups", func(ctx context.Context) {
		if a.inherited {
			a.checkGroups(ctx, a.groups)
		}
	})
	recvDone := a.loop(ctx, "receive", a.receive)
	membersDone := a.loop(ctx, "members", a.keepMembers)
	schedDone := a.loop(ctx, "schedule", a.sched.Run)
	pruneDone := a.loop(ctx, "prune", a.prune)
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
	<-schedDone // no post is handed to the intake after it closes
	<-pruneDone
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
	return errors.Join(err, a.close(cctx))
}

// closeTimeout bounds flushing the spans and closing, once the frames end.
const closeTimeout = 5 * time.Second

// close runs the closers in reverse build order, joining their errors: the
// HTTP server shuts down first, the picture refills stop before the tracer
// provider flushes their spans, then go the idle connections, the state file
// and the metrics.
func (a *App) close(ctx context.Context) error {
	var errs []error
	for i := len(a.closers) - 1; i >= 0; i-- {
		errs = append(errs, a.closers[i](ctx))
	}
	return errors.Join(errs...)
}
