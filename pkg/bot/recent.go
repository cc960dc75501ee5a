package bot

import (
	"sync"

	"signal-bot/pkg/journal"
	"signal-bot/pkg/signalapi"
)

// RecentSize is how many (sender, timestamp) pairs the duplicate filter
// remembers; the journal keeps as many in the state file (Deps.Seen).
const RecentSize = 4096

// dedupKey is the duplicate filter's key of m, a message from decode: the
// sender and the message's timestamp, for a command (the only messages the
// filter looks at). ok is false for any other frame. The journal keeps it
// with the frame and writes it to the state file once the frame is finished.
func dedupKey(m *Message) (key journal.Seen, ok bool) {
	if m == nil || m.Err != nil || m.Skip != signalapi.SkipNone || !m.IsCommand {
		return journal.Seen{}, false
	}
	key = journal.Seen{Sender: m.In.SenderKey(), Timestamp: m.In.Timestamp}
	return key, key.Sender != ""
}

// recentSet remembers the last n (sender, timestamp) pairs, so a frame that
// arrives twice (a redelivery after a reconnect, or a journaled copy of a
// frame answered before a crash) is answered once.
type recentSet struct {
	mu   sync.Mutex
	seen map[recentKey]struct{}
	ring []recentKey
	next int
}

type recentKey struct {
	sender string
	ts     int64
}

func newRecentSet(n int) *recentSet {
	return &recentSet{seen: make(map[recentKey]struct{}, n), ring: make([]recentKey, n)}
}

// add records the pair and reports whether it was new.
func (r *recentSet) add(sender string, ts int64) bool {
	k := recentKey{sender, ts}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.seen[k]; dup {
		return false
	}
	if old := r.ring[r.next]; old != (recentKey{}) {
		delete(r.seen, old)
	}
	r.ring[r.next] = k
	r.next = (r.next + 1) % len(r.ring)
	r.seen[k] = struct{}{}
	return true
}
