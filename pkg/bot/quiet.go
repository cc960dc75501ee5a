package bot

import (
	"sync"
	"time"
)

// quietCap bounds the refusals remembered. When it is reached and nothing has expired,
// further refusals stay quiet: silence is the safe side.
const quietCap = 65536

// quiet remembers which refusals (a cooldown's "wait", an unknown command's hint, a "not
// here") each sender has been sent, so that each goes out at most once per window:
// someone who types the same refused command 300 times gets one answer, not 300 sends
// from the bot's account.
type quiet struct {
	mu    sync.Mutex
	until map[quietKey]time.Time
}

type quietKey struct {
	sender, command, kind string
}

func newQuiet() *quiet { return &quiet{until: make(map[quietKey]time.Time)} }

// allow reports whether the refusal kind of command may be sent to sender at now, and if
// so keeps the next one quiet until now+window.
func (q *quiet) allow(sender, command, kind string, now time.Time, window time.Duration) bool {
	k := quietKey{sender, command, kind}
	q.mu.Lock()
	defer q.mu.Unlock()
	if until, ok := q.until[k]; ok && now.Before(until) {
		return false
	}
	if len(q.until) >= quietCap {
		for key, until := range q.until {
			if !now.Before(until) {
				delete(q.until, key)
			}
		}
		if len(q.until) >= quietCap {
			return false
		}
	}
	q.until[k] = now.Add(window)
	return true
}
