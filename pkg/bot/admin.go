package bot

import (
	"context"
	"errors"
	"strings"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/telemetry"
)

// AdminCommand is the admins' command, !bot. The bot answers it itself,
// before the registry: it is no command of the registry (!pomoc does not
// list it, no cooldown or scope applies, it cannot be switched off), and
// only an admin in a direct chat with the bot (or, in owner mode, the owner
// in Note-to-Self) gets an answer; anyone else's !bot gets nothing, counted.
const AdminCommand = "bot"

// Limits on what an admin may set.
const (
	maxCooldown = 24 * time.Hour
	maxPause    = 7 * 24 * time.Hour
)

// adminReq is one !bot call.
type adminReq struct {
	args  []string // the subcommand's arguments
	admin string   // the admin as the log names them: alias, else sender hash
	now   time.Time
	texts commands.Texts
}

// subcommand is one row of !bot's table.
type subcommand struct {
	name  string
	usage commands.Key // its line in !bot's usage
	nargs int          // the arguments it needs at least
	run   func(b *Bot, ctx context.Context, r adminReq) string
}

// subcommands is !bot's table: a subcommand is one row here, with its usage
// line (a Key) in both text tables.
func subcommands() []subcommand {
	return []subcommand{
		{"status", commands.KeyBotUsageStatus, 0, (*Bot).adminStatus},
		{"cooldown", commands.KeyBotUsageCooldown, 2, (*Bot).adminCooldown},
		{"scope", commands.KeyBotUsageScope, 2, (*Bot).adminScope},
		{"off", commands.KeyBotUsageOff, 1, (*Bot).adminOff},
		{"on", commands.KeyBotUsageOn, 1, (*Bot).adminOn},
		{"pauza", commands.KeyBotUsagePauza, 1, (*Bot).adminPause},
		{"plan", commands.KeyBotUsagePlan, 0, (*Bot).adminPlan},
		{"reset", commands.KeyBotUsageReset, 0, (*Bot).adminReset},
	}
}

// AdminSubcommands names !bot's subcommands, in the table's order, for the
// README's test.
func AdminSubcommands() []string {
	var out []string
	for _, s := range subcommands() {
		out = append(out, s.name)
	}
	return out
}

// admin answers an admin's !bot in a direct chat (Note-to-Self included).
// Anyone else's !bot, and an admin's in a group, gets no reply at all, not
// even the hint an unknown command gets, and is counted (frames ignored,
// reasons not_admin and admin_in_group).
func (b *Bot) admin(ctx context.Context, m *Message) *work {
	in := m.In
	alias, ok := b.d.Admins.Of(in)
	if !ok && fromOwner(m) {
		alias, ok = "owner", true
	}
	switch {
	case !ok:
		b.d.Recorder.FrameIgnored("not_admin")
		return nil
	case in.GroupID != "":
		b.d.Recorder.FrameIgnored("admin_in_group")
		return nil
	case !b.recent.add(in.SenderKey(), in.Timestamp):
		b.d.Log.InfoContext(ctx, "duplicate frame skipped")
		return nil
	}
	if alias == "" {
		alias = b.hashes.get(in.SenderKey())
	}
	r := adminReq{admin: alias, now: b.d.Now(), texts: b.d.Texts}
	var sub string
	sub, r.args = parseAdmin(m.Args)
	w := &work{in: in, name: AdminCommand, outcome: telemetry.OutcomeServed, req: commands.Request{
		Sender: in.SenderKey(), Now: r.now, Registry: b.d.Registry, Texts: b.d.Texts,
	}}
	w.reply = &commands.Reply{Text: b.runAdmin(ctx, sub, r)}
	return w
}

// fromOwner tells whether m is the account owner's own message (owner mode,
// OWNER_COMMANDS): the owner is an admin.
func fromOwner(m *Message) bool { return m.FromOwner() }

// parseAdmin splits !bot's arguments into the subcommand, lower-cased, and
// its arguments.
func parseAdmin(args string) (sub string, rest []string) {
	f := strings.Fields(args)
	if len(f) == 0 {
		return "", nil
	}
	return strings.ToLower(f[0]), f[1:]
}

// runAdmin runs the subcommand sub, or answers the usage when there is no
// such subcommand or it lacks arguments.
func (b *Bot) runAdmin(ctx context.Context, sub string, r adminReq) string {
	table := subcommands()
	for _, s := range table {
		if s.name == sub && len(r.args) >= s.nargs {
			return s.run(b, ctx, r)
		}
	}
	lines := []string{r.texts.Text(commands.KeyBotUsage)}
	for _, s := range table {
		lines = append(lines, r.texts.Text(s.usage))
	}
	return strings.Join(lines, "\n")
}

// command resolves an admin's command argument ("kot", "!kitku") to its
// command, or answers why not.
func (b *Bot) command(arg string, r adminReq) (*commands.Command, string) {
	name := strings.TrimPrefix(arg, "!")
	c, ok := b.d.Registry.Resolve(name)
	if !ok {
		return nil, r.texts.Format(commands.KeyBotNoCommand, commands.Truncate(name, commands.MaxNameRunes))
	}
	return c, ""
}

// parseDuration reads an admin's duration: a Go duration ("90s", "5m",
// "1h30m") or "0", not negative and at most max.
func parseDuration(s string, max time.Duration) (time.Duration, bool) {
	if s == "0" {
		return 0, true
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > max {
		return 0, false
	}
	return d, true
}

// changed logs a change an admin made, naming the admin by alias or hash,
// and answers done, or the apology when the change could not be kept.
func (b *Bot) changed(ctx context.Context, r adminReq, err error, done string, attrs ...any) string {
	attrs = append([]any{"admin", r.admin}, attrs...)
	if err != nil {
		b.d.Log.ErrorContext(ctx, "a change made in chat could not be kept", append(attrs, "err", telemetry.RedactErr(err))...)
		return r.texts.Internal()
	}
	b.d.Log.InfoContext(ctx, "setting changed in chat", attrs...)
	return done
}

func (b *Bot) adminCooldown(ctx context.Context, r adminReq) string {
	c, why := b.command(r.args[0], r)
	if c == nil {
		return why
	}
	d, ok := parseDuration(r.args[1], maxCooldown)
	if !ok {
		return r.texts.Format(commands.KeyBotBadDuration, commands.Truncate(r.args[1], 32), maxCooldown.String())
	}
	err := b.settings.changes.SetCooldown(ctx, c.Name, d)
	done := r.texts.Format(commands.KeyBotCooldown, c.Name, commands.Seconds(d), commands.Seconds(c.Cooldown))
	return b.changed(ctx, r, err, done, "change", "cooldown", "command", c.Name, "cooldown", d.String())
}

func (b *Bot) adminScope(ctx context.Context, r adminReq) string {
	c, why := b.command(r.args[0], r)
	if c == nil {
		return why
	}
	spec := strings.Join(r.args[1:], "")
	if _, err := b.settings.changes.ParseScope(spec); err != nil {
		return r.texts.Format(commands.KeyBotBadScope, commands.Truncate(err.Error(), 200))
	}
	err := b.settings.changes.SetScope(ctx, c.Name, spec)
	done := r.texts.Format(commands.KeyBotScope, c.Name, spec)
	return b.changed(ctx, r, err, done, "change", "scope", "command", c.Name, "scope", spec)
}

func (b *Bot) adminOff(ctx context.Context, r adminReq) string { return b.switchCommand(ctx, r, true) }

func (b *Bot) adminOn(ctx context.Context, r adminReq) string { return b.switchCommand(ctx, r, false) }

func (b *Bot) switchCommand(ctx context.Context, r adminReq, off bool) string {
	c, why := b.command(r.args[0], r)
	if c == nil {
		return why
	}
	err := b.settings.changes.SetOff(ctx, c.Name, off)
	change, done := "on", r.texts.Format(commands.KeyBotOn, c.Name)
	if off {
		change, done = "off", r.texts.Format(commands.KeyBotOff, c.Name)
	}
	return b.changed(ctx, r, err, done, "change", change, "command", c.Name)
}

func (b *Bot) adminPause(ctx context.Context, r adminReq) string {
	d, ok := parseDuration(r.args[0], maxPause)
	if !ok {
		return r.texts.Format(commands.KeyBotBadDuration, commands.Truncate(r.args[0], 32), maxPause.String())
	}
	var until time.Time
	done := r.texts.Text(commands.KeyBotUnpaused)
	if d > 0 {
		until = r.now.Add(d)
		done = r.texts.Format(commands.KeyBotPaused, stamp(until))
	}
	err := b.settings.changes.Pause(ctx, until)
	return b.changed(ctx, r, err, done, "change", "pauza", "pause", d.String())
}

func (b *Bot) adminReset(ctx context.Context, r adminReq) string {
	err := errors.Join(b.settings.changes.Reset(ctx), b.resetPlan(ctx))
	return b.changed(ctx, r, err, r.texts.Text(commands.KeyBotReset), "change", "reset")
}

// stamp renders a time of day for an admin, to the second, in the bot's
// time zone.
func stamp(t time.Time) string { return t.Format("2006-01-02 15:04:05 MST") }
