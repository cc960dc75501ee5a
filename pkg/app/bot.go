package app

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/admin"
	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/metrics"
	"signal-bot/pkg/owncmds"
	"signal-bot/pkg/signalapi"
)

// botParts are the parts the bot is built over.
type botParts struct {
	log      *slog.Logger
	tp       trace.TracerProvider
	metrics  *metrics.Metrics
	state    state
	api      *signalapi.Client
	safety   safety
	pictures map[string]commands.PictureSource
	base     http.RoundTripper   // under the typing client
	commands []*commands.Command // COMMANDS_FILE's, then Options.Commands (tests only)
	version  string              // for !bot status
	up       func() bool         // connected to the REST API, for !bot status
	changes  *admin.Changes      // what admins changed in chat (loadChanges)
	texts    *owncmds.ChatTexts  // the text commands admins made in chat, once the registry is built
}

// reactor is what sends the bot's reactions, nil with REACTIONS=off: the
// REST client, whose calls are send-leg spans, as a reaction is a message.
func reactor(cfg config.Config, api *signalapi.Client) bot.Reactor {
	if !cfg.Bot.ReactionsOn() {
		return nil
	}
	return api
}

// newBot builds the bot over p, with the commands' registry (buildRegistry)
// and the typing client (typer), and the intake in front of it; it has the
// metrics observe the health figures. Nothing in it needs closing.
func newBot(cfg config.Config, p botParts) (*bot.Bot, *bot.Intake, *commands.Registry, error) {
	overrides := bot.NewOverrides()
	settings := bot.NewSettings(overrides, p.changes) // what !pomoc and !ja show: what the bot's dispatch checks
	reg, err := buildRegistry(cfg, p.safety.groups, settings, p.state.store, p.pictures, p.commands...)
	if err != nil {
		return nil, nil, nil, err
	}
	p.metrics.StartAtZero(knownLabels(cfg, reg))
	own, err := bot.LoadOwnSends(p.state.store, time.Now())
	if err != nil {
		return nil, nil, nil, err
	}
	b := bot.New(bot.Deps{
		API: p.api, Registry: reg, Store: p.state.store, Overrides: overrides, Groups: p.safety.groups, Tracer: p.tp, Log: p.log,
		Changes: p.changes,
		HashKey: p.state.hashKey, Recorder: p.metrics,
		Gate: p.safety.gate, Audience: p.safety.audience, QuietWindow: cfg.Bot.QuietWindow,
		QuoteReplies: bot.QuoteModeOf(cfg.Bot.QuoteReplies), Texts: commands.TextsFor(cfg.Commands.ReplyLang),
		Typing: typer(cfg, p.base, p.tp), TypingBudget: p.safety.gate, TypingRefresh: cfg.Bot.TypingRefresh,
		Reactor: reactor(cfg, p.api), RepeatWindow: cfg.Bot.RepeatWindow, Account: p.safety.account,
		Seen:          p.state.left.SeenSince(time.Now().Add(-cfg.Journal.ReplayMaxAge)),
		OwnerCommands: cfg.Bot.OwnerOn(), OwnSends: own,
	})
	if err := p.metrics.ObserveHealth(healthStats(p.state.store, p.safety.account)); err != nil {
		return nil, nil, nil, fmt.Errorf("health metrics: %w", err)
	}
	return b, bot.NewIntake(b, p.state.journal, cfg.Pipeline.Config), reg, nil
}

// knownLabels are the label values of the counters that depend on this
// build: the registry's commands, and those with a picture pool.
func knownLabels(cfg config.Config, reg *commands.Registry) metrics.Known {
	var k metrics.Known
	for _, c := range reg.All() {
		k.Commands = append(k.Commands, c.Name)
		if cfg.Pictures.PoolSize(c.Name) > 0 {
			k.Pools = append(k.Pools, c.Name)
		}
	}
	return k
}
