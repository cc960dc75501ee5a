package admin

import (
	"context"
	"time"

	"signal-bot/pkg/commands"
)

// maxCooldown is the longest cooldown an admin may set.
const maxCooldown = 24 * time.Hour

const keyCooldown key = "bot.cooldown" // %[1]s: the command, %[2]s: the cooldown, %[3]s: the environment's

func cooldownTexts() phrases {
	return phrases{
		"pl": {
			usageKey("cooldown"): "• !bot cooldown <komenda> <czas> — np. !bot cooldown kot 1m (0s: bez)",
			keyCooldown:          "Komenda !%[1]s: co %[2]s (środowisko: %[3]s).",
		},
		"en": {
			usageKey("cooldown"): "• !bot cooldown <command> <duration> — e.g. !bot cooldown kot 1m (0s: none)",
			keyCooldown:          "Command !%[1]s: every %[2]s (environment: %[3]s).",
		},
	}
}

// cooldown is !bot cooldown <command> <duration>: the command's cooldown,
// over the environment's.
func (c *Console) cooldown(ctx context.Context, r request) string {
	cmd, why := c.command(r.args[0], r)
	if cmd == nil {
		return why
	}
	d, bad := parseDuration(r.args[1], maxCooldown)
	if bad != "" {
		return badDuration(r, bad, r.args[1], maxCooldown)
	}
	err := c.d.Changes.SetCooldown(ctx, cmd.Name, d)
	done := r.t.format(keyCooldown, cmd.Name, commands.Seconds(d), commands.Seconds(cmd.Cooldown))
	return c.changed(ctx, r, err, done, "change", "cooldown", "command", cmd.Name, "cooldown", d.String())
}
