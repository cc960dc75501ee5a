package config

import (
	"errors"
	"fmt"
	"time"

	"signal-bot/pkg/outbound"
)

// Safety keeps the bot from turning its own Signal account against itself: what it may
// send, where it answers at all, and how much one sender may queue. Signal rate-limits
// every account (by default 60 messages per recipient, refilled 1 per second, and 50
// attachment uploads, refilled 1 per 1.2 s); the defaults stay well inside that and leave
// room for the operator's own messages on a linked account. See docs/operations.md.
type Safety struct {
	outbound.Config               // the outbound budget and the pause after a 429
	QuietWindow     time.Duration `env:"QUIET_WINDOW_MIN, default=30s" help:"a refusal (cooldown, unknown command, not here) is sent once per sender and command per max(cooldown, this)"`
	AnswerIn        []string      `env:"ANSWER_IN, default=groups,members" help:"where the bot answers: groups (the configured SIGNAL_GROUPS), members (direct chats with their members), direct (any direct chat), group aliases, or * for everyone"`
	MembersRefresh  time.Duration `env:"MEMBERS_REFRESH, default=10m" help:"how often the members of the configured groups are listed again (for ANSWER_IN=members)"`
}

// Validate reports the settings that are out of range.
func (s Safety) Validate() error {
	errs := []error{s.Config.Validate()}
	if s.QuietWindow < 0 {
		errs = append(errs, fmt.Errorf("QUIET_WINDOW_MIN must not be negative, got %s", s.QuietWindow))
	}
	if len(s.AnswerIn) == 0 {
		errs = append(errs, errors.New("ANSWER_IN must name where the bot answers (* for everyone)"))
	}
	if s.MembersRefresh <= 0 {
		errs = append(errs, fmt.Errorf("MEMBERS_REFRESH must be positive, got %s", s.MembersRefresh))
	}
	return errors.Join(errs...)
}
