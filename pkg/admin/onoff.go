package admin

import "context"

const (
	keyOff key = "bot.off" // %[1]s: the command
	keyOn  key = "bot.on"  // %[1]s: the command
)

func offTexts() phrases {
	return phrases{
		"pl": {usageKey("off"): "• !bot off <komenda> — wyłącza komendę", keyOff: "Komenda !%[1]s wyłączona."},
		"en": {usageKey("off"): "• !bot off <command> — switches the command off", keyOff: "Command !%[1]s switched off."},
	}
}

func onTexts() phrases {
	return phrases{
		"pl": {usageKey("on"): "• !bot on <komenda> — włącza ją z powrotem", keyOn: "Komenda !%[1]s włączona."},
		"en": {usageKey("on"): "• !bot on <command> — switches it back on", keyOn: "Command !%[1]s switched on."},
	}
}

// off is !bot off <command>: the command answers nothing, as if it were not
// there, but without the hint.
func (c *Console) off(ctx context.Context, r request) string { return c.switchCommand(ctx, r, true) }

// on is !bot on <command>: switched back on.
func (c *Console) on(ctx context.Context, r request) string { return c.switchCommand(ctx, r, false) }

func (c *Console) switchCommand(ctx context.Context, r request, off bool) string {
	cmd, why := c.command(r.args[0], r)
	if cmd == nil {
		return why
	}
	err := c.d.Changes.SetOff(ctx, cmd.Name, off)
	change, done := "on", r.t.format(keyOn, cmd.Name)
	if off {
		change, done = "off", r.t.format(keyOff, cmd.Name)
	}
	return c.changed(ctx, r, err, done, "change", change, "command", cmd.Name)
}
