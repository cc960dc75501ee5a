package bot

import (
	"sync"

	"signal-bot/pkg/signalapi"
)

// RecentSize is how many (sender, timestamp) pairs the duplicate filter
// remembers; the journal keeps as many in the state file (Deps.Seen).
const RecentSize = 4096

// Seen is a (sender, timestamp) pair the duplicate filter knows from
// before this process: a frame the last one answered.
type Seen struct {
	Sender    string
	Timestamp int64
}

// DedupKey is the duplicate filter's key of m, a message from Decode: the
// sender and the message's timestamp, for a command (the only messages the
// filter looks at). ok is false for any other frame.
func DedupKey(m *Message) (key Seen, ok bool) {
	if m == nil || m.Err != nil || m.Skip != signalapi.SkipNone || !m.IsCommand {
		return Seen{}, false
	}
	key = Seen{Sender: m.In.SenderKey(), Timestamp: m.In.Timestamp}
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
