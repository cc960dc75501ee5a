package config

import (
	"errors"
	"fmt"
	"time"
)

// Journal configures the journal of accepted frames (docs/faults.md,
// "Restarts and crashes").
type Journal struct {
	MaxFrames    int           `env:"JOURNAL_MAX_FRAMES, default=5000" help:"accepted frames kept in STATE_PATH until their outcome is final, replayed after a crash; 0: no journal"`
	MaxBytes     int64         `env:"JOURNAL_MAX_BYTES, default=67108864" help:"bytes of journaled frames; a frame past either bound runs unjournaled and is counted"`
	ReplayMaxAge time.Duration `env:"REPLAY_MAX_AGE, default=10m" help:"at start, journaled frames older than this are dropped (logged, counted) instead of answered"`
}

// Validate reports the bounds that are out of range. MaxFrames 0 turns the
// journal off.
func (j Journal) Validate() error {
	var errs []error
	if j.MaxFrames < 0 {
		errs = append(errs, fmt.Errorf("JOURNAL_MAX_FRAMES must be 0 (no journal) or more, got %d", j.MaxFrames))
	}
	if j.MaxFrames > 0 && j.MaxBytes < 1 {
		errs = append(errs, fmt.Errorf("JOURNAL_MAX_BYTES must be at least 1 with the journal on, got %d", j.MaxBytes))
	}
	if j.ReplayMaxAge < 0 {
		errs = append(errs, fmt.Errorf("REPLAY_MAX_AGE must not be negative, got %v", j.ReplayMaxAge))
	}
	return errors.Join(errs...)
}
