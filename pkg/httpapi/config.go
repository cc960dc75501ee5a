package httpapi

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Config is the bot's own endpoints, read from the environment by package
// config and checked there once, by Validate; New trusts it.
type Config struct {
	Addr            string        `env:"HTTP_ADDR, default=127.0.0.1:9923" help:"address of /_selftest, /healthz, /metrics"`
	SelftestToken   string        `env:"SELFTEST_TOKEN" help:"bearer token for /_selftest; required when HTTP_ADDR is not loopback"`
	SelftestSender  string        `env:"SELFTEST_SENDER, default=+48500000099" help:"the identity synthetic selftest frames come from"`
	SelftestTimeout time.Duration `env:"SELFTEST_TIMEOUT, default=30s" help:"how long /_selftest waits for the frame's trace"`
	// SelftestRate 0 means no limit.
	SelftestRate float64 `env:"SELFTEST_RATE, default=500" help:"most /_selftest requests per second (each one really sends a message)"`
	// SilenceDegraded 0 is off: a quiet chat is quiet, and that is no fault.
	SilenceDegraded time.Duration `env:"SILENCE_DEGRADED, default=0s" help:"/healthz is degraded when no frame (any: a receipt counts) has come from the REST API for longer than this; 0 is off"`
}

// Validate names each variable of c that is out of range, and a bad token.
func (c Config) Validate() error {
	errs := []error{CheckToken("SELFTEST_TOKEN", c.SelftestToken)}
	if c.SelftestTimeout <= 0 {
		errs = append(errs, fmt.Errorf("SELFTEST_TIMEOUT must be positive, got %s", c.SelftestTimeout))
	}
	if strings.TrimSpace(c.SelftestSender) == "" {
		errs = append(errs, errors.New("SELFTEST_SENDER must not be empty"))
	}
	if c.SilenceDegraded < 0 {
		errs = append(errs, fmt.Errorf("SILENCE_DEGRADED must not be negative (0 is off), got %s", c.SilenceDegraded))
	}
	if c.SelftestRate < 0 {
		errs = append(errs, fmt.Errorf("SELFTEST_RATE must not be negative, got %v", c.SelftestRate))
	}
	return errors.Join(errs...)
}

// Limits harden the bot's own HTTP server against slow, idle and
// cross-site clients (docs/faults.md, hostile input); checked by Validate,
// trusted by NewServer.
type Limits struct {
	AllowedHosts []string      `env:"HTTP_ALLOWED_HOSTS" help:"Host names requests may carry besides localhost, 127.0.0.1, ::1 and HTTP_ADDR's host (compose: the service name the REST API's webhook uses)"`
	MaxConns     int           `env:"HTTP_MAX_CONNS, default=256" help:"connections held at once; beyond it the longest-idle one is closed, or the new one if none is idle"`
	IdleTimeout  time.Duration `env:"HTTP_IDLE_TIMEOUT, default=60s" help:"an idle keep-alive connection is closed after this; a new one must send its headers within min(5s, this)"`
}

// Validate names each variable of l that is out of range.
func (l Limits) Validate() error {
	var errs []error
	if l.MaxConns < 1 {
		errs = append(errs, fmt.Errorf("HTTP_MAX_CONNS must be at least 1, got %d", l.MaxConns))
	}
	if l.IdleTimeout <= 0 {
		errs = append(errs, fmt.Errorf("HTTP_IDLE_TIMEOUT must be positive, got %s", l.IdleTimeout))
	}
	return errors.Join(errs...)
}

// ExampleToken is the placeholder of deploy/signal-bot.env.example, which
// must never be taken for a secret.
const ExampleToken = "REPLACE_WITH_A_RANDOM_TOKEN"

// MinTokenLen is the shortest SELFTEST_TOKEN or WEBHOOK_TOKEN accepted.
const MinTokenLen = 32

// CheckToken refuses a set token, the variable name, that is short or the
// example's.
func CheckToken(name, token string) error {
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

// CheckWebhookPath refuses a WEBHOOK_PATH that another endpoint takes or
// that is no plain path.
func CheckWebhookPath(path string) error {
	switch {
	case !strings.HasPrefix(path, "/"):
		return fmt.Errorf("WEBHOOK_PATH must start with /, got %q", path)
	case path == "/" || path == "/_selftest" || path == "/_override" || path == "/healthz" || path == "/metrics":
		return fmt.Errorf("WEBHOOK_PATH %q is taken by another endpoint", path)
	case strings.ContainsAny(path, "{} ?#"):
		return fmt.Errorf("WEBHOOK_PATH %q: want a plain path such as /_webhook", path)
	}
	return nil
}
