package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Safety keeps the bot from turning its own Signal account against itself: what it may
// send, where it answers at all, and how much one sender may queue. Signal rate-limits
// every account (by default 60 messages per recipient, refilled 1 per second, and 50
// attachment uploads, refilled 1 per 1.2 s); the defaults stay well inside that and leave
// room for the operator's own messages on a linked account. See docs/operations.md.
type Safety struct {
	SendBudget        string        `env:"SEND_BUDGET, default=on" help:"on, or off to switch the outbound budget off (benchmarks against the simulator only)"`
	ChatBudget        string        `env:"SEND_BUDGET_CHAT, default=30/60s" help:"replies per chat (group or direct peer): a burst of N, refilled N per period"`
	AttachmentBudget  string        `env:"SEND_BUDGET_ATTACHMENTS, default=20/60s" help:"pictures sent per account: a burst of N, refilled N per period"`
	SendWaitMax       time.Duration `env:"SEND_WAIT_MAX, default=5s" help:"longest a reply waits for the budget or a rate-limit pause (without holding a slot); beyond it the reply is shed"`
	RateLimitPause    time.Duration `env:"RATE_LIMIT_PAUSE, default=60s" help:"pause of all sends after a 429 that names no retry time, doubled per 429 in a row"`
	RateLimitPauseMax time.Duration `env:"RATE_LIMIT_PAUSE_MAX, default=1h" help:"longest pause after a 429"`
	QuietWindow       time.Duration `env:"QUIET_WINDOW_MIN, default=30s" help:"a refusal (cooldown, unknown command, not here) is sent once per sender and command per max(cooldown, this)"`
	AnswerIn          []string      `env:"ANSWER_IN, default=groups,members" help:"where the bot answers: groups (the configured SIGNAL_GROUPS), members (direct chats with their members), direct (any direct chat), group aliases, or * for everyone"`
	MembersRefresh    time.Duration `env:"MEMBERS_REFRESH, default=10m" help:"how often the members of the configured groups are listed again (for ANSWER_IN=members)"`
}

// BudgetOn reports whether SEND_BUDGET is on.
func (s Safety) BudgetOn() bool { return s.SendBudget != "off" }

// Budgets returns SEND_BUDGET_CHAT and SEND_BUDGET_ATTACHMENTS.
func (s Safety) Budgets() (chat, attachments Rate, err error) {
	if chat, err = ParseRate(s.ChatBudget); err != nil {
		return chat, attachments, fmt.Errorf("configuration: SEND_BUDGET_CHAT: %w", err)
	}
	if attachments, err = ParseRate(s.AttachmentBudget); err != nil {
		return chat, attachments, fmt.Errorf("configuration: SEND_BUDGET_ATTACHMENTS: %w", err)
	}
	return chat, attachments, nil
}

// Validate reports the first setting that is out of range.
func (s Safety) Validate() error {
	if _, _, err := s.Budgets(); err != nil {
		return err
	}
	switch {
	case s.SendBudget != "on" && s.SendBudget != "off":
		return fmt.Errorf("configuration: SEND_BUDGET must be on or off, got %q", s.SendBudget)
	case s.SendWaitMax < 0:
		return fmt.Errorf("configuration: SEND_WAIT_MAX must not be negative, got %s", s.SendWaitMax)
	case s.RateLimitPause <= 0 || s.RateLimitPauseMax < s.RateLimitPause:
		return fmt.Errorf("configuration: RATE_LIMIT_PAUSE must be positive and at most RATE_LIMIT_PAUSE_MAX, got %s and %s", s.RateLimitPause, s.RateLimitPauseMax)
	case s.QuietWindow < 0:
		return fmt.Errorf("configuration: QUIET_WINDOW_MIN must not be negative, got %s", s.QuietWindow)
	case len(s.AnswerIn) == 0:
		return fmt.Errorf("configuration: ANSWER_IN must name where the bot answers (* for everyone)")
	case s.MembersRefresh <= 0:
		return fmt.Errorf("configuration: MEMBERS_REFRESH must be positive, got %s", s.MembersRefresh)
	}
	return nil
}

// Rate is a token bucket written N/period: a burst of N, refilled N per period.
type Rate struct {
	N   int
	Per time.Duration
}

// ParseRate reads "30/60s".
func ParseRate(v string) (Rate, error) {
	n, per, ok := strings.Cut(strings.TrimSpace(v), "/")
	if !ok {
		return Rate{}, fmt.Errorf("want N/period such as 30/60s, got %q", v)
	}
	c, err := strconv.Atoi(n)
	if err != nil || c < 1 {
		return Rate{}, fmt.Errorf("want a positive count before the slash, got %q", v)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return Rate{}, fmt.Errorf("want a positive period after the slash, got %q", v)
	}
	return Rate{N: c, Per: d}, nil
}

// String writes "30/1m0s".
func (r Rate) String() string { return strconv.Itoa(r.N) + "/" + r.Per.String() }
