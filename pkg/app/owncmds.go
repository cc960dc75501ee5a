package app

import (
	"context"
	"fmt"
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/hooks"
	"signal-bot/pkg/metrics"
	"signal-bot/pkg/owncmds"
	"signal-bot/pkg/telemetry"
	"signal-bot/pkg/upstream"
)

// ownParts are what COMMANDS_FILE's commands are built over.
type ownParts struct {
	tp       trace.TracerProvider
	base     *http.Transport  // under the hooks' own transport
	pictures hooks.Pictures   // readies the answers' pictures
	key      []byte           // keys the senders' ids the hooks see
	metrics  *metrics.Metrics // signal_bot_hook_calls
	groups   bot.Groups       // the aliases scopes name
}

// ownCommands builds the commands of COMMANDS_FILE: text commands, and
// hooks called through one client that reaches their URLs only
// (upstream.Hosts), whose spans are the upstream leg and carry their trace
// context to the hook (telemetry.Propagate). Its closer closes the hooks'
// idle connections.
func ownCommands(cfg config.Config, p ownParts) ([]*commands.Command, closer, error) {
	defs := cfg.OwnCommands.Commands
	var urls, names []string
	for _, d := range defs {
		if d.Hook != "" {
			urls, names = append(urls, d.Hook), append(names, d.Name)
		}
	}
	hosts, err := upstream.NewHosts(urls) // checked by config.Load
	if err != nil {
		return nil, nil, fmt.Errorf("configuration: COMMANDS_FILE: %w", err)
	}
	count, err := p.metrics.Hooks(names, hooks.Outcomes())
	if err != nil {
		return nil, nil, err
	}
	tr := hosts.Transport(p.base)
	deps := hooks.Deps{
		Client: &http.Client{
			Transport:     telemetry.NewTransport(telemetry.Propagate(hosts.RoundTripper(tr)), p.tp, telemetry.LegUpstream),
			CheckRedirect: hosts.CheckRedirect,
		},
		Pictures: p.pictures, PictureTimeout: cfg.Upstreams.Timeout, SenderKey: p.key, Count: count,
	}
	cmds := make([]*commands.Command, 0, len(defs))
	for _, d := range defs {
		c, err := ownCommand(cfg, d, deps, p.groups)
		if err != nil {
			return nil, nil, err
		}
		cmds = append(cmds, c)
	}
	return cmds, func(context.Context) error { tr.CloseIdleConnections(); return nil }, nil
}

// ownCommand is d's command: its text, or its hook's answer.
func ownCommand(cfg config.Config, d owncmds.Def, deps hooks.Deps, groups bot.Groups) (*commands.Command, error) {
	scope := commands.Everywhere
	if d.Scope != "" {
		s, err := commands.ParseScope(d.Scope, groups.Aliases())
		if err != nil {
			return nil, fmt.Errorf("configuration: COMMANDS_FILE %s:%d: command %q: scope: %w", cfg.OwnCommands.File, d.Line, d.Name, err)
		}
		scope = s
	}
	own := commands.Own{Name: d.Name, Aliases: d.Aliases, Summary: d.Summary, Cooldown: d.Cooldown, Scope: scope,
		Typing: d.Typing, Origin: commands.OriginFile}
	run := commands.Answer(d.Text)
	if d.Hook != "" {
		run = deps.Run(hooks.Hook{Name: d.Name, URL: d.Hook, Timeout: d.Timeout, Secret: d.Secret})
	}
	return own.Command(cfg.Commands.ReplyLang, run), nil
}
