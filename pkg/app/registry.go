package app

import (
	"fmt"

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

// buildRegistry makes the four commands with their configured cooldowns
// and scopes; !pomoc and !ja show the cooldowns as overrides leave them, and
// srcs, from startPictures, serve the pictures of !cat and !kot.
func buildRegistry(cfg config.Config, groups bot.Groups, overrides *bot.Overrides, st *store.Store, srcs map[string]commands.PictureSource) (*commands.Registry, error) {
	u, texts := cfg.Upstreams, commands.TextsFor(cfg.Commands.ReplyLang)
	cmds := []*commands.Command{
		commands.Pomoc(overrides),
		commands.Ja(bot.Tallies{Store: st}, overrides, cfg.Commands.JaShowName),
		commands.PictureCommand("cat", nil, "", "🐱", 0, u.Timeout, srcs["cat"]),
		commands.PictureCommand("kot", []string{"kitku"}, "", "🐈", 0, u.Timeout, srcs["kot"]),
	}
	for _, c := range cmds {
		c.Summary = texts.Summary(c.Name) // in REPLY_LANG
		c.Cooldown = cfg.Commands.Cooldowns[c.Name]
		if spec, ok := cfg.Commands.Scopes[c.Name]; ok {
			s, err := commands.ParseScope(spec, groups.Aliases())
			if err != nil {
				return nil, fmt.Errorf("configuration: SCOPES: %s: %w", c.Name, err)
			}
			c.Scope = s
		}
	}
	for name := range cfg.Commands.Scopes {
		if !known(cmds, name) {
			return nil, fmt.Errorf("configuration: SCOPES: no command %q", name)
		}
	}
	return commands.NewRegistry(cmds...)
}

func known(cmds []*commands.Command, name string) bool {
	for _, c := range cmds {
		if c.Name == name {
			return true
		}
	}
	return false
}
