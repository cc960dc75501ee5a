package config

import "time"

// Journal configures the journal of accepted frames (docs/faults.md,
// "Restarts and crashes").
type Journal struct {
	MaxFrames    int           `env:"JOURNAL_MAX_FRAMES, default=5000" help:"accepted frames kept in STATE_PATH until their outcome is final, replayed after a crash; 0: no journal"`
	MaxBytes     int64         `env:"JOURNAL_MAX_BYTES, default=67108864" help:"bytes of journaled frames; a frame past either bound runs unjournaled and is counted"`
	ReplayMaxAge time.Duration `env:"REPLAY_MAX_AGE, default=10m" help:"at start, journaled frames older than this are dropped (logged, counted) instead of answered"`
}
