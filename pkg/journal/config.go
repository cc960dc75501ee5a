package journal

import (
	"errors"
	"fmt"
	"time"
)

// Config bounds the journal, read from the environment by package config
// and checked there once, by Validate; Open trusts it.
type Config struct {
	// MaxFrames is how many frames may be pending at once; 0: no journal.
	MaxFrames int   `env:"JOURNAL_MAX_FRAMES, default=5000" help:"accepted frames kept in STATE_PATH until their outcome is final, replayed after a crash; 0: no journal"`
	MaxBytes  int64 `env:"JOURNAL_MAX_BYTES, default=67108864" help:"bytes of journaled frames; a frame past either bound runs unjournaled and is counted"`
	// ReplayMaxAge is read by the replay at start, not by the journal.
	ReplayMaxAge time.Duration `env:"REPLAY_MAX_AGE, default=10m" help:"at start, journaled frames older than this are dropped (logged, counted) instead of answered"`
	// ReplayMaxAttempts bounds the replays of one entry (Journal.Attempt);
	// 0 (a Config built in code) means defaultReplayMaxAttempts.
	ReplayMaxAttempts int `env:"REPLAY_MAX_ATTEMPTS, default=2" help:"times one journaled frame is replayed at most; a frame left again after that many (it crashed the bot each time) is dropped as poison (logged, counted)"`
	// MaxSeen is how many duplicate filter records are kept in the file; 0:
	// none are written. It is no variable: the app sets it to the size of
	// the bot's filter.
	MaxSeen int
}

// defaultReplayMaxAttempts is REPLAY_MAX_ATTEMPTS's default.
const defaultReplayMaxAttempts = 2

// Validate names each variable of c that is out of range.
func (c Config) Validate() error {
	var errs []error
	if c.MaxFrames < 0 {
		errs = append(errs, fmt.Errorf("JOURNAL_MAX_FRAMES must be 0 (no journal) or more, got %d", c.MaxFrames))
	}
	if c.MaxFrames > 0 && c.MaxBytes < 1 {
		errs = append(errs, fmt.Errorf("JOURNAL_MAX_BYTES must be at least 1 with the journal on, got %d", c.MaxBytes))
	}
	if c.ReplayMaxAttempts < 1 || c.ReplayMaxAttempts > 255 {
		errs = append(errs, fmt.Errorf("REPLAY_MAX_ATTEMPTS must be 1 to 255, got %d", c.ReplayMaxAttempts))
	}
	if c.ReplayMaxAge < 0 {
		errs = append(errs, fmt.Errorf("REPLAY_MAX_AGE must not be negative, got %v", c.ReplayMaxAge))
	}
	return errors.Join(errs...)
}
