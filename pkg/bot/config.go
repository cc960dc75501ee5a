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
	TypingRefresh  time.Duration `env:"TYPING_REFRESH, default=10s" help:"while a picture reply is prepared and sent, the typing indicator is shown again this often (Signal clients drop it after about 15 s); under 15s"`
	Reactions      string        `env:"REACTIONS, default=on" help:"on: a refused repeat inside a cooldown gets a ⏳ reaction instead of a text, and a 🔁 reaction on one of the bot's pictures asks for another; off: neither"`
	RepeatWindow   time.Duration `env:"REPEAT_WINDOW, default=10m" help:"how long after a picture a 🔁 reaction on it asks for another (REACTIONS=on)"`
	OwnerCommands  string        `env:"OWNER_COMMANDS, default=on" help:"on: commands the account's owner types on their phone (or another linked device) in a configured group or in Note-to-Self are answered like a member's; off: the account's own messages are never answered"`
}

// TypingRefreshMax is the longest TYPING_REFRESH: Signal clients drop an
// indicator that is not shown again within about 15 s.
const TypingRefreshMax = 15 * time.Second

// ReactionsOn reports whether REACTIONS is on.
func (c Config) ReactionsOn() bool { return c.Reactions == "on" }

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
	if c.TypingRefresh <= 0 || c.TypingRefresh >= TypingRefreshMax {
		errs = append(errs, fmt.Errorf("TYPING_REFRESH must be above 0 and under %s, got %s", TypingRefreshMax, c.TypingRefresh))
	}
	if c.Reactions != "on" && c.Reactions != "off" {
		errs = append(errs, fmt.Errorf("REACTIONS must be on or off, got %q", c.Reactions))
	}
	if c.RepeatWindow <= 0 {
		errs = append(errs, fmt.Errorf("REPEAT_WINDOW must be positive, got %s", c.RepeatWindow))
	}
	if o := c.OwnerCommands; o != "on" && o != "off" {
		errs = append(errs, fmt.Errorf("OWNER_COMMANDS must be on or off, got %q", o))
	}
	return errors.Join(errs...)
}
