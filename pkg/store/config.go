package store

import (
	"errors"
	"fmt"
	"time"
)

// Config is where the state file is and how it is written, read from the
// environment by package config and checked there once, by Validate; Open
// trusts it. The zero value but for Path is usable: it commits as soon as the
// writer is free and stops on a damaged file.
type Config struct {
	Path string `env:"STATE_PATH, default=state/signal-bot.db" help:"tallies and cooldowns (bbolt file, mode 0600)"`
	// CommitInterval is the group commit's window: how long the writer
	// collects changes before it commits them in one transaction; zero
	// commits as soon as it is free. See docs/state.md.
	CommitInterval time.Duration `env:"STATE_COMMIT_INTERVAL, default=10ms" help:"uses are committed to STATE_PATH in one transaction per interval; a kill -9 forgets at most the last interval's"`
	// Damaged is what a damaged file does at start (see
	// docs/troubleshooting.md#a-damaged-state-file): DamagedAside has Open
	// move it to <path>.damaged-<UTC time> and start fresh, with a warning;
	// anything else has Open return ErrDamaged.
	Damaged string `env:"STATE_DAMAGED, default=stop" help:"a damaged STATE_PATH at start: stop (exit 2, the file left as it is for a restore) or aside (moved to <name>.damaged-<time>, state starts fresh, with a warning)"`
	// ForgetAfter is how long a sender's record of a command (its tally,
	// its cooldown) is kept unused; 0 keeps every record (prune.go).
	ForgetAfter time.Duration `env:"STATE_FORGET_AFTER, default=2160h" help:"a sender's tally and cooldown of a command unused this long are deleted from memory and STATE_PATH (at start, then hourly), so one-off senders do not pile up; at least 25h (the longest cooldown !bot sets is 24h) and COOLDOWNS' longest; 0 keeps them for ever"`
}

// MinForgetAfter is the shortest STATE_FORGET_AFTER but 0: above the
// longest cooldown an admin can set in chat (24h), so no running cooldown
// is forgotten.
const MinForgetAfter = 25 * time.Hour

// The values of STATE_DAMAGED.
const (
	DamagedStop  = "stop"
	DamagedAside = "aside"
)

// Validate names each variable of c that is out of range.
func (c Config) Validate() error {
	var errs []error
	if c.CommitInterval < 0 || c.CommitInterval > time.Minute {
		errs = append(errs, fmt.Errorf("STATE_COMMIT_INTERVAL must be 0 to 1m, got %v", c.CommitInterval))
	}
	if c.ForgetAfter != 0 && c.ForgetAfter < MinForgetAfter {
		errs = append(errs, fmt.Errorf("STATE_FORGET_AFTER must be 0 (keep every record) or at least %v, got %v", MinForgetAfter, c.ForgetAfter))
	}
	if c.Damaged != DamagedStop && c.Damaged != DamagedAside {
		errs = append(errs, fmt.Errorf("STATE_DAMAGED must be %s or %s, got %q", DamagedStop, DamagedAside, c.Damaged))
	}
	return errors.Join(errs...)
}
