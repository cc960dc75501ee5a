package config

import (
	"fmt"
	"log/slog"
)

// Log configures the bot's log.
type Log struct {
	Level string `env:"LOG_LEVEL, default=info" help:"debug, info, warn or error: the least level logged (on standard error; the sandbox writes its log to a file beside its state)"`
}

// SlogLevel is Level as a slog.Level.
func (l Log) SlogLevel() (slog.Level, error) {
	var v slog.Level
	if err := v.UnmarshalText([]byte(l.Level)); err != nil {
		return 0, fmt.Errorf("LOG_LEVEL must be debug, info, warn or error, got %q", l.Level)
	}
	return v, nil
}

// Validate reports a LOG_LEVEL that is no level.
func (l Log) Validate() error {
	_, err := l.SlogLevel()
	return err
}
