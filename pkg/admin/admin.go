// Package admin is the admins' console, !bot: its verbs (one file each),
// who is an admin (ADMINS), the changes they make in chat (kept in the state
// file), the views of !bot status and !bot plan, and their texts. It sits
// above package bot: the bot hands it an admin's !bot through bot.Console,
// which *Console is; it reads the bot's figures through Figures (the
// intake's) and Account (the account's standing: who is unreachable, the
// captcha), the scheduled posts through Planner, and the bot's settings
// read its Changes through bot.ChatChanges.
package admin

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/owncmds"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// Deps are what the console works with. Registry, Changes and Gate are
// required; the others may be left zero, as each one's comment says.
type Deps struct {
	Registry *commands.Registry // the commands the verbs name
	Changes  *Changes           // the changes made in chat
	Texts    *owncmds.ChatTexts // the text commands made in chat (!bot tekst); nil: none
	Admins   Admins             // who may use !bot (ADMINS); the zero Admins: nobody
	Lang     string             // the replies' language (REPLY_LANG); "": Polish
	Log      *slog.Logger       // nil: no log
	Gate     *outbound.Gate     // the outbound budget and 429 pause, for !bot status
	Groups   bot.Groups         // the configured groups, for !bot status's budget line
	Figures  Figures            // the bot's intake; nil: no queue or journal line, no frame heard
	Account  Account            // the account's standing, for !bot captcha and the unreachable members; nil: neither
	Planner  Planner            // the scheduled posts; nil: none
	Status   StatusInfo         // what !bot status reports that the bot does not know itself
}

// Console answers the admins' !bot (bot.Console).
type Console struct {
	d     Deps
	verbs []verb
	t     texts          // the console's texts in d.Lang
	cmd   commands.Texts // the shared texts in d.Lang (the apology)
}

var _ bot.Console = (*Console)(nil)

// New returns the console of d. It refuses texts that miss a language, a
// key or a verb, as NewRegistry refuses a command's.
func New(d Deps) (*Console, error) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	vs := verbs()
	t, err := textsFor(d.Lang, vs)
	if err != nil {
		return nil, err
	}
	return &Console{d: d, verbs: vs, t: t, cmd: commands.TextsFor(d.Lang)}, nil
}

// Admin tells whether in's sender is listed in ADMINS, and its alias.
func (c *Console) Admin(in signalapi.Incoming) (string, bool) { return c.d.Admins.Of(in) }

// Answer runs the verb an admin's !bot names, or answers the usage when
// there is no such verb or it lacks arguments.
func (c *Console) Answer(ctx context.Context, call bot.AdminCall) string {
	name, args, raw := parse(call.Args)
	if alias, ok := verbAliases()[name]; ok {
		name = alias
	}
	r := request{args: args, raw: raw, admin: call.Admin, now: call.Now, t: c.t}
	for _, v := range c.verbs {
		if v.name == name && len(args) >= v.nargs {
			return fitReply(v.run(c, ctx, r))
		}
	}
	lines := []string{c.t.text(keyUsage)}
	for _, v := range c.verbs {
		lines = append(lines, c.t.text(usageKey(v.name)))
	}
	return strings.Join(lines, "\n")
}

// request is one !bot call, as a verb gets it.
type request struct {
	args  []string // the verb's arguments
	raw   string   // the text after the verb, as typed (spaces and lines kept)
	admin string   // the admin as the log names them: alias, else sender hash
	now   time.Time
	t     texts
}

// parse splits !bot's arguments into the verb, lower-cased, its arguments,
// and the text after the verb as typed.
func parse(args string) (name string, rest []string, raw string) {
	f := strings.Fields(args)
	if len(f) == 0 {
		return "", nil, ""
	}
	_, raw, _ = strings.Cut(strings.TrimSpace(args), f[0])
	return strings.ToLower(f[0]), f[1:], strings.TrimSpace(raw)
}

// command resolves an admin's command argument ("kot", "!kitku") to its
// command, or answers why not.
func (c *Console) command(arg string, r request) (*commands.Command, string) {
	name := strings.TrimPrefix(arg, "!")
	cmd, ok := c.d.Registry.Resolve(name)
	if !ok {
		return nil, r.t.format(keyNoCommand, commands.Truncate(name, commands.MaxNameRunes))
	}
	return cmd, ""
}

// parseDuration reads an admin's duration: "0", or a Go duration ("90s",
// "5m", "1h30m") of one second to max, rounded to the second, which is
// what a reply can say and what is kept. why is the text of its refusal
// (keyTooShort, keyBadDuration), "" when it takes s.
func parseDuration(s string, max time.Duration) (d time.Duration, why key) {
	if s == "0" {
		return 0, ""
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil || d < 0 || d > max:
		return 0, keyBadDuration
	case d > 0 && d < time.Second:
		return 0, keyTooShort
	}
	return d.Round(time.Second), ""
}

// badDuration is the answer to a duration parseDuration refused for why.
func badDuration(r request, why key, s string, max time.Duration) string {
	return r.t.format(why, commands.Truncate(s, 32), max.String())
}

// changed logs a change an admin made, naming the admin by alias or hash,
// and answers done, or the apology when the change could not be kept.
func (c *Console) changed(ctx context.Context, r request, err error, done string, attrs ...any) string {
	attrs = append([]any{"admin", r.admin}, attrs...)
	if err != nil {
		c.d.Log.ErrorContext(ctx, "a change made in chat could not be kept", append(attrs, "err", telemetry.RedactErr(err))...)
		return c.cmd.Internal()
	}
	c.d.Log.InfoContext(ctx, "setting changed in chat", attrs...)
	return done
}

// stamp renders a time of day for an admin, to the second, in the bot's
// time zone.
func stamp(t time.Time) string { return t.Format("2006-01-02 15:04:05 MST") }
