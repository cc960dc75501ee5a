package admin

import (
	"context"
	"errors"
	"strings"

	"signal-bot/pkg/commands"
)

// maxScopeBytes bounds a scope an admin sets, as COOLDOWNS and SCOPES
// bound a command's arguments: it shows in !bot status and /healthz.
const maxScopeBytes = commands.MaxArgsBytes

const (
	keyBadScope   key = "bot.bad_scope"   // %[1]s: why
	keyScope      key = "bot.scope"       // %[1]s: the command, %[2]s: the scope
	keyScopePart  key = "bot.scope_part"  // %[1]s: a part of the scope that is no chat
	keyScopeEmpty key = "bot.scope_empty" // the scope names no chat
	keyScopeLong  key = "bot.scope_long"  // %[1]d: the scope's bytes, %[2]d: the most
)

func scopeTexts() phrases {
	return phrases{
		"pl": {
			usageKey("scope"): "• !bot scope <komenda> <zakres> — *, direct, groups lub alias grupy, łączone |",
			keyBadScope:       "Zły zakres: %[1]s.",
			keyScope:          "Komenda !%[1]s działa teraz w: %[2]s.",
			keyScopePart:      "%[1]q to nie *, direct, groups ani alias grupy",
			keyScopeEmpty:     "nie wskazuje żadnego czatu",
			keyScopeLong:      "ma %[1]d bajtów, najwyżej %[2]d",
		},
		"en": {
			usageKey("scope"): "• !bot scope <command> <scope> — *, direct, groups or a group alias, joined with |",
			keyBadScope:       "Bad scope: %[1]s.",
			keyScope:          "Command !%[1]s now works in: %[2]s.",
			keyScopePart:      "%[1]q is not *, direct, groups or a group alias",
			keyScopeEmpty:     "it names no chat",
			keyScopeLong:      "it is %[1]d bytes, at most %[2]d",
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
	if len(spec) > maxScopeBytes {
		return r.t.format(keyBadScope, r.t.format(keyScopeLong, len(spec), maxScopeBytes))
	}
	if _, err := c.d.Changes.ParseScope(spec); err != nil {
		return r.t.format(keyBadScope, scopeReason(err, r.t))
	}
	err := c.d.Changes.SetScope(ctx, cmd.Name, spec)
	done := r.t.format(keyScope, cmd.Name, spec)
	return c.changed(ctx, r, err, done, "change", "scope", "command", cmd.Name, "scope", spec)
}

// scopeReason is why ParseScope refused a scope, in t's language.
func scopeReason(err error, t texts) string {
	var se *ScopeError
	switch {
	case !errors.As(err, &se):
		return commands.Truncate(err.Error(), 200) // none: ParseScope's are ScopeErrors
	case se.Part == "":
		return t.text(keyScopeEmpty)
	}
	return t.format(keyScopePart, commands.Truncate(se.Part, 64))
}
