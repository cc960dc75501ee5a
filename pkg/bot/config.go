package bot

import (
	"errors"
	"fmt"
	"time"
)

// Config is where the bot answers and how it refuses and shows it is busy,
// read from the environment by package config and checked there once, by
// Validate; the bot trusts it.
type Config struct {
	QuietWindow    time.Duration `env:"QUIET_WINDOW_MIN, default=30s" help:"a refusal (cooldown, unknown command, not here) is sent once per sender and command per max(cooldown, this)"`
	AnswerIn       []string      `env:"ANSWER_IN, default=groups,members" help:"where the bot answers: groups (the configured SIGNAL_GROUPS), members (direct chats with their members), direct (any direct chat), group aliases, or * for everyone"`
	MembersRefresh time.Duration `env:"MEMBERS_REFRESH, default=10m" help:"how often the members of the configured groups are listed again (for ANSWER_IN=members)"`
	Typing         string        `env:"TYPING, default=on" help:"on: show Signal's typing indicator while !cat or !kot fetches and sends its picture; off: never"`
	QuoteReplies   string        `env:"QUOTE_REPLIES, default=groups" help:"which replies quote the message that asked: groups (replies in groups), all, off"`
	OwnerCommands  string        `env:"OWNER_COMMANDS, default=on" help:"on: commands the account's owner types on their phone (or another linked device) in a configured group or in Note-to-Self are answered like a member's; off: the account's own messages are never answered"`
}

// OwnerOn reports whether OWNER_COMMANDS is on.
func (c Config) OwnerOn() bool { return c.OwnerCommands == "on" }

// TypingOn reports whether TYPING is on.
func (c Config) TypingOn() bool { return c.Typing == "on" }

// Validate names each variable of c that is out of range. The group aliases
// in ANSWER_IN are checked by NewAudience, against the configured groups.
func (c Config) Validate() error {
	var errs []error
	if c.QuietWindow < 0 {
		errs = append(errs, fmt.Errorf("QUIET_WINDOW_MIN must not be negative, got %s", c.QuietWindow))
	}
	if len(c.AnswerIn) == 0 {
		errs = append(errs, errors.New("ANSWER_IN must name where the bot answers (* for everyone)"))
	}
	if c.MembersRefresh <= 0 {
		errs = append(errs, fmt.Errorf("MEMBERS_REFRESH must be positive, got %s", c.MembersRefresh))
	}
	if c.Typing != "on" && c.Typing != "off" {
		errs = append(errs, fmt.Errorf("TYPING must be on or off, got %q", c.Typing))
	}
	if q := c.QuoteReplies; q != "groups" && q != "all" && q != "off" {
		errs = append(errs, fmt.Errorf("QUOTE_REPLIES must be groups, all or off, got %q", q))
	}
	if o := c.OwnerCommands; o != "on" && o != "off" {
		errs = append(errs, fmt.Errorf("OWNER_COMMANDS must be on or off, got %q", o))
	}
	return errors.Join(errs...)
}
