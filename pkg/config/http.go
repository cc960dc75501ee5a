package config

import (
	"errors"
	"fmt"
	"time"
)

// HTTPLimits hardens the bot's own HTTP server against slow, idle and
// cross-site clients; see docs/faults.md, hostile input.
type HTTPLimits struct {
	AllowedHosts []string      `env:"HTTP_ALLOWED_HOSTS" help:"Host names requests may carry besides localhost, 127.0.0.1, ::1 and HTTP_ADDR's host (compose: the service name the REST API's webhook uses)"`
	MaxConns     int           `env:"HTTP_MAX_CONNS, default=256" help:"connections held at once; beyond it the longest-idle one is closed, or the new one if none is idle"`
	IdleTimeout  time.Duration `env:"HTTP_IDLE_TIMEOUT, default=60s" help:"an idle keep-alive connection is closed after this; a new one must send its headers within min(5s, this)"`
}

// ExampleToken is the placeholder of deploy/signal-bot.env.example, which
// must never be taken for a secret.
const ExampleToken = "REPLACE_WITH_A_RANDOM_TOKEN"

// MinTokenLen is the shortest SELFTEST_TOKEN or WEBHOOK_TOKEN accepted.
const MinTokenLen = 32

// checkToken refuses a set token that is short or the example's.
func checkToken(name, token string) error {
	switch {
	case token == "":
		return nil
	case token == ExampleToken:
		return fmt.Errorf("%s is the example's placeholder: set a random one (openssl rand -hex 32)", name)
	case len(token) < MinTokenLen:
		return fmt.Errorf("%s must be at least %d characters, got %d (openssl rand -hex 32)", name, MinTokenLen, len(token))
	}
	return nil
}

// Validate reports the limits that are out of range.
func (l HTTPLimits) Validate() error {
	var errs []error
	if l.MaxConns < 1 {
		errs = append(errs, fmt.Errorf("HTTP_MAX_CONNS must be at least 1, got %d", l.MaxConns))
	}
	if l.IdleTimeout <= 0 {
		errs = append(errs, fmt.Errorf("HTTP_IDLE_TIMEOUT must be positive, got %s", l.IdleTimeout))
	}
	return errors.Join(errs...)
}
