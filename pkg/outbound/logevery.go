package outbound

import (
	"sync"
	"time"
)

// LogEvery lets one log line through per interval and counts the ones it held back, so
// a flood is logged as a line a minute, not a line a frame. The zero value is ready.
type LogEvery struct {
	mu   sync.Mutex
	at   time.Time
	held int
}

// Allow reports whether to log now, and how many lines were held back since the last one.
func (l *LogEvery) Allow(now time.Time, every time.Duration) (ok bool, held int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.at.IsZero() && now.Sub(l.at) < every {
		l.held++
		return false, l.held
	}
	held, l.held, l.at = l.held, 0, now
	return true, held
}
