package bot

import (
	"sync/atomic"
	"time"

	"signal-bot/pkg/outbound"
)

// stateHealth remembers whether the last recording of a use failed, for /healthz.
type stateHealth struct {
	failing atomic.Bool
	since   atomic.Int64 // unix ns of the first failure in a row
}

func (s *stateHealth) note(err error, now time.Time) {
	if err == nil {
		s.failing.Store(false)
		return
	}
	if !s.failing.Swap(true) {
		s.since.Store(now.UnixNano())
	}
}

// StateFailing reports whether the last recording of a use failed, and since when.
func (b *Bot) StateFailing() (bool, time.Time) {
	if !b.state.failing.Load() {
		return false, time.Time{}
	}
	return true, time.Unix(0, b.state.since.Load())
}

// Gate is the bot's outbound gate (budget and 429 pause).
func (b *Bot) Gate() *outbound.Gate { return b.d.Gate }
