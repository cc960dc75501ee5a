package app

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/store"
)

// resolveGroups turns SIGNAL_GROUPS (alias → group.… or signal-cli id) into ids.
func resolveGroups(c config.Commands) (bot.Groups, error) {
	ids := make(map[string]string, len(c.Groups))
	for alias, ref := range c.Groups {
		id, err := commands.GroupRef(ref, nil)
		if err != nil {
			return bot.Groups{}, fmt.Errorf("configuration: SIGNAL_GROUPS: %s: %w", alias, err)
		}
		ids[alias] = id
	}
	return bot.NewGroups(ids, c.TestGroups), nil
}

// commandList is every command, each with its own default cooldown and
// scope: adding a command is one line here. !pomoc and !ja show the
// cooldowns and scopes as the settings in force have them (the admins'
// changes, the test overrides), and srcs, from startPictures, serve the
// pictures of !cat and !kot.
func commandList(cfg config.Config, settings *bot.Settings, st *store.Store, srcs map[string]commands.PictureSource) []*commands.Command {
	timeout := cfg.Upstreams.Timeout
	return []*commands.Command{
		commands.Pomoc(settings),
		commands.Ja(bot.Tallies{Store: st}, settings, cfg.Commands.JaShowName),
		commands.Cat(srcs["cat"], timeout),
		commands.Kot(srcs["kot"], timeout),
	}
}

// buildRegistry makes the commands of commandList with their summaries in
// REPLY_LANG, and extra (Options.Commands, tests only, as they are), with
// COOLDOWNS and SCOPES merged over their defaults. No command may be named
// bot.AdminCommand, which the bot answers itself.
func buildRegistry(cfg config.Config, groups bot.Groups, settings *bot.Settings, st *store.Store, srcs map[string]commands.PictureSource, extra ...*commands.Command) (*commands.Registry, error) {
	cmds := commandList(cfg, settings, st, srcs)
	for _, c := range cmds {
		c.Summary = c.SummaryIn(cfg.Commands.ReplyLang)
	}
	cmds = append(cmds, extra...)
	if err := applyOverrides(cmds, cfg.Commands, groups); err != nil {
		return nil, err
	}
	reg, err := commands.NewRegistry(cmds...)
	if err != nil {
		return nil, err
	}
	if _, taken := reg.Resolve(bot.AdminCommand); taken {
		return nil, fmt.Errorf("command name %q is the admins' !%s", bot.AdminCommand, bot.AdminCommand)
	}
	return reg, nil
}

// applyOverrides sets the cooldown of each command COOLDOWNS names and the
// scope of each SCOPES names; the others keep their defaults. A name that is
// no command's is refused, naming the variable: a typo would otherwise leave
// the default in force without a word.
func applyOverrides(cmds []*commands.Command, c config.Commands, groups bot.Groups) error {
	names := make([]string, len(cmds))
	for i, cmd := range cmds {
		names[i] = cmd.Name
	}
	slices.Sort(names)
	for _, v := range []struct {
		name string
		keys []string
	}{{"COOLDOWNS", slices.Sorted(maps.Keys(c.Cooldowns))}, {"SCOPES", slices.Sorted(maps.Keys(c.Scopes))}} {
		for _, k := range v.keys {
			if !slices.Contains(names, k) {
				return fmt.Errorf("configuration: %s: no command %q (the commands: %s)", v.name, k, strings.Join(names, ", "))
			}
		}
	}
	for _, cmd := range cmds {
		if d, ok := c.Cooldowns[cmd.Name]; ok {
			cmd.Cooldown = d
		}
		if spec, ok := c.Scopes[cmd.Name]; ok {
			s, err := commands.ParseScope(spec, groups.Aliases())
			if err != nil {
				return fmt.Errorf("configuration: SCOPES: %s: %w", cmd.Name, err)
			}
			cmd.Scope = s
		}
	}
	return nil
}
