package outbound

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Config sets the budget and the pause, read from the environment by package
// config and checked there once, by Validate; New trusts it. The defaults
// stay well inside Signal's limits (docs/operations.md#keeping-the-account-safe).
type Config struct {
	// SendBudget is "on" or "off"; the zero value is off.
	SendBudget       string        `env:"SEND_BUDGET, default=on" help:"on, or off to switch the outbound budget off (benchmarks against the simulator only)"`
	ChatBudget       string        `env:"SEND_BUDGET_CHAT, default=30/60s" help:"replies per chat (group or direct peer): a burst of N, refilled N per period"`
	AttachmentBudget string        `env:"SEND_BUDGET_ATTACHMENTS, default=20/60s" help:"pictures sent per account: a burst of N, refilled N per period"`
	SendWaitMax      time.Duration `env:"SEND_WAIT_MAX, default=5s" help:"longest a reply waits for the budget or a rate-limit pause (without holding a slot); beyond it the reply is shed"`
	// RateLimitPause is doubled per 429 in a row, up to RateLimitPauseMax.
	RateLimitPause    time.Duration `env:"RATE_LIMIT_PAUSE, default=60s" help:"pause of all sends after a 429 that names no retry time, doubled per 429 in a row"`
	RateLimitPauseMax time.Duration `env:"RATE_LIMIT_PAUSE_MAX, default=1h" help:"longest pause after a 429"`
}

// BudgetOn reports whether SEND_BUDGET is on.
func (c Config) BudgetOn() bool { return c.SendBudget == "on" }

// Budgets returns SEND_BUDGET_CHAT and SEND_BUDGET_ATTACHMENTS.
func (c Config) Budgets() (chat, attachments Rate, err error) {
	if chat, err = ParseRate(c.ChatBudget); err != nil {
		return chat, attachments, fmt.Errorf("SEND_BUDGET_CHAT: %w", err)
	}
	if attachments, err = ParseRate(c.AttachmentBudget); err != nil {
		return chat, attachments, fmt.Errorf("SEND_BUDGET_ATTACHMENTS: %w", err)
	}
	return chat, attachments, nil
}

// Validate names each variable of c that is out of range.
func (c Config) Validate() error {
	var errs []error
	if _, _, err := c.Budgets(); err != nil {
		errs = append(errs, err)
	}
	if c.SendBudget != "on" && c.SendBudget != "off" {
		errs = append(errs, fmt.Errorf("SEND_BUDGET must be on or off, got %q", c.SendBudget))
	}
	if c.SendWaitMax < 0 {
		errs = append(errs, fmt.Errorf("SEND_WAIT_MAX must not be negative, got %s", c.SendWaitMax))
	}
	if c.RateLimitPause <= 0 || c.RateLimitPauseMax < c.RateLimitPause {
		errs = append(errs, fmt.Errorf("RATE_LIMIT_PAUSE must be positive and at most RATE_LIMIT_PAUSE_MAX, got %s and %s", c.RateLimitPause, c.RateLimitPauseMax))
	}
	return errors.Join(errs...)
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
