package bot

import (
	"time"

	"signal-bot/pkg/commands"
)

// Settings are the commands' cooldowns and scopes in force, in three layers:
// each command's default as the environment set it (its Cooldown and Scope:
// COOLDOWNS and SCOPES merged over the command's own), a change an admin made
// in chat over it (ChatChanges, package admin), and a test override (/_override) over both. It
// is commands.Settings: what !pomoc and !ja show, and what dispatch checks.
type Settings struct {
	overrides *Overrides
	changes   ChatChanges
}

var _ commands.Settings = (*Settings)(nil)

// NewSettings layers o and c over the commands' defaults; nil ones are
// empty.
func NewSettings(o *Overrides, c ChatChanges) *Settings {
	if o == nil {
		o = NewOverrides()
	}
	if c == nil {
		c = noChanges{}
	}
	return &Settings{overrides: o, changes: c}
}

// Cooldown is c's cooldown in chat at now: zero while a test override is
// active there, else the one set in chat, else c's own.
func (s *Settings) Cooldown(chat commands.Chat, c *commands.Command, now time.Time) time.Duration {
	if chat.IsGroup() && s.overrides.Active(chat.GroupID, c.Name, now) {
		return 0
	}
	if d, ok := s.changes.Cooldown(c.Name); ok {
		return d
	}
	return c.Cooldown
}

// Scope is c's scope in force: the one set in chat, else c's own.
func (s *Settings) Scope(c *commands.Command) commands.Scope {
	if sc, ok := s.changes.Scope(c.Name); ok {
		return sc
	}
	return c.Scope
}

// Off tells whether an admin switched c off.
func (s *Settings) Off(c *commands.Command) bool { return s.changes.IsOff(c.Name) }

// Allows tells whether c answers in chat: not switched off, and its scope
// in force allows chat.
func (s *Settings) Allows(chat commands.Chat, c *commands.Command) bool {
	return !s.Off(c) && s.Scope(c).Allows(chat)
}
