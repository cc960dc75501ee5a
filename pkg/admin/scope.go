package admin

import (
	"context"
	"strings"

	"signal-bot/pkg/commands"
)

const (
	keyBadScope key = "bot.bad_scope" // %[1]s: why
	keyScope    key = "bot.scope"     // %[1]s: the command, %[2]s: the scope
)

func scopeTexts() phrases {
	return phrases{
		"pl": {
			usageKey("scope"): "• !bot scope <komenda> <zakres> — *, direct, groups lub alias grupy, łączone |",
			keyBadScope:       "Zły zakres: %[1]s.",
			keyScope:          "Komenda !%[1]s działa teraz w: %[2]s.",
		},
		"en": {
			usageKey("scope"): "• !bot scope <command> <scope> — *, direct, groups or a group alias, joined with |",
			keyBadScope:       "Bad scope: %[1]s.",
			keyScope:          "Command !%[1]s now works in: %[2]s.",
		},
	}
}

// scope is !bot scope <command> <scope>: where the command answers, groups
// named by alias (Changes.ParseScope).
func (c *Console) scope(ctx context.Context, r request) string {
	cmd, why := c.command(r.args[0], r)
	if cmd == nil {
		return why
	}
	spec := strings.Join(r.args[1:], "")
	if _, err := c.d.Changes.ParseScope(spec); err != nil {
		return r.t.format(keyBadScope, commands.Truncate(err.Error(), 200))
	}
	err := c.d.Changes.SetScope(ctx, cmd.Name, spec)
	done := r.t.format(keyScope, cmd.Name, spec)
	return c.changed(ctx, r, err, done, "change", "scope", "command", cmd.Name, "scope", spec)
}
