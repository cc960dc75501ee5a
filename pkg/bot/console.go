package bot

import (
	"context"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// AdminCommand is the admins' command, !bot. The bot hands it to its Console
// before the registry: it is no command of the registry (!pomoc does not
// list it, no cooldown or scope applies, it cannot be switched off), and
// only an admin in a direct chat with the bot (or, in owner mode, the owner
// in Note-to-Self) gets an answer; anyone else's !bot gets nothing, counted.
const AdminCommand = "bot"

// Console is the admins' console, which answers !bot (package admin's
// *Console is one; pkg/app sets it with SetConsole).
type Console interface {
	// Admin tells whether in's sender may use !bot, and the alias the log
	// names them by ("" for none).
	Admin(in signalapi.Incoming) (alias string, ok bool)
	// Answer is the reply to one admin's !bot.
	Answer(ctx context.Context, c AdminCall) string
}

// AdminCall is one admin's !bot, as the bot hands it to the Console.
type AdminCall struct {
	Args  string    // what follows !bot, as typed (commands.ParseAdmin: up to MaxAdminArgsBytes)
	Admin string    // the admin as the log names them: alias, else sender hash
	Now   time.Time // the bot's clock when it was handled
}

// ChatChanges are the changes admins made in chat, as the settings and
// dispatch read them (package admin's *Changes is one).
type ChatChanges interface {
	Cooldown(name string) (time.Duration, bool) // the cooldown set for the command name, if any
	Scope(name string) (commands.Scope, bool)   // the scope set for the command name, if any
	IsOff(name string) bool                     // whether the command name is switched off
	PausedUntil(now time.Time) time.Time        // the end of the pause, or the zero time
}

// noChanges is the ChatChanges of a bot without a console: none.
type noChanges struct{}

func (noChanges) Cooldown(string) (time.Duration, bool) { return 0, false }
func (noChanges) Scope(string) (commands.Scope, bool)   { return commands.Scope{}, false }
func (noChanges) IsOff(string) bool                     { return false }
func (noChanges) PausedUntil(time.Time) time.Time       { return time.Time{} }

// SetConsole gives the bot the admins' console. It is called once, after New
// and before the intake runs (the console reads the intake and the scheduled
// posts, built after the bot); without one, every !bot gets nothing.
func (b *Bot) SetConsole(c Console) { b.console = c }

// admin hands an admin's !bot in a direct chat (Note-to-Self included) to
// the console. Anyone else's !bot, and an admin's in a group, gets no reply
// at all, not even the hint an unknown command gets, and is counted (frames
// ignored, reasons not_admin and admin_in_group).
func (b *Bot) admin(ctx context.Context, m *Message) *work {
	in := m.In
	var alias string
	ok := false
	if b.console != nil {
		alias, ok = b.console.Admin(in)
		if !ok && m.FromOwner() { // owner mode: the owner is an admin
			alias, ok = "owner", true
		}
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
	now := b.d.Now()
	w := &work{in: in, name: AdminCommand, outcome: telemetry.OutcomeServed, pastPause: true, req: commands.Request{
		Sender: in.SenderKey(), Now: now, Registry: b.d.Registry, Texts: b.d.Texts,
	}}
	// The verbs take longer arguments than a command (a plan, a text
	// command's text) and bound them themselves: parsed again, uncut.
	_, args, _ := commands.ParseAdmin(b.commandText(in))
	w.reply = &commands.Reply{Text: b.console.Answer(ctx, AdminCall{Args: args, Admin: alias, Now: now})}
	return w
}
