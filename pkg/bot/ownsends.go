package bot

import (
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

// An echo of the bot's own send is a sync "sent" transcript carrying the
// send's timestamp (the one POST /v2/send answers), in the chat the bot sent
// to: taken for the owner's message, a reply that reads as a command would
// make the bot answer itself. signal-cli is not sent its own messages (Signal
// hands a device's sends to the account's other devices only), so none is
// expected; the bot is safe from any that comes all the same, from a REST API
// that passes its sends back or a backlog fetched late. It remembers what it
// sent, the last EchoSize sends of the last EchoWindow, in memory and in the
// state file, and never handles a transcript with one of those timestamps.
const (
	// EchoWindow is how long a send's timestamp is remembered, across
	// restarts: a day covers a backlog fetched after an outage of the REST
	// API or a night with the bot down. An older transcript is handled like
	// any other owner's message.
	EchoWindow = 24 * time.Hour
	// EchoSize bounds the sends remembered, in memory and in the file
	// (16384 timestamps: a few hundred KiB).
	EchoSize = 16384
)

// bucketOwnSends holds the bot's own sends: the timestamp (big-endian epoch
// ms, so keys sort by time) → nothing.
var bucketOwnSends = []byte("own_sends")

// OwnSends remembers the timestamps of the bot's own sends, so that their
// echoes are not taken for the owner's messages. It is safe for concurrent use.
type OwnSends struct {
	w *store.Writer // nil: memory only

	mu   sync.Mutex
	set  map[int64]struct{}
	ring []int64 // oldest first once full; next is the oldest
	next int
}

// LoadOwnSends reads the sends remembered in s's state file that are still
// within EchoWindow of now; new sends are written there by s's writer. A nil
// s remembers in memory only.
func LoadOwnSends(s *store.Store, now time.Time) (*OwnSends, error) {
	o := newOwnSends(nil)
	if s == nil {
		return o, nil
	}
	o.w = s.Writer()
	cutoff := now.Add(-EchoWindow).UnixMilli()
	var keep []int64
	err := s.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketOwnSends)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			if ts := decodeSendKey(k); ts >= cutoff {
				keep = append(keep, ts)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("read the bot's own sends: %w", err)
	}
	keep = keep[max(0, len(keep)-EchoSize):]
	for _, ts := range keep {
		o.add(ts)
	}
	if _, err := o.w.Add(pruneSends{before: cutoff, keep: keep}); err != nil {
		return nil, fmt.Errorf("prune the bot's own sends: %w", err)
	}
	return o, nil
}

func newOwnSends(w *store.Writer) *OwnSends {
	return &OwnSends{w: w, set: make(map[int64]struct{}, EchoSize), ring: make([]int64, 0, EchoSize)}
}

// Remember notes a send's timestamp; 0 (an answer without one) is ignored.
func (o *OwnSends) Remember(ts int64) {
	if o == nil || ts == 0 {
		return
	}
	o.mu.Lock()
	dropped, fresh := o.add(ts)
	o.mu.Unlock()
	if fresh && o.w != nil {
		// A failed commit is retried by the writer; a closed file (shutdown)
		// only costs the memory of this one send across the restart.
		_, _ = o.w.Add(sendRecord{add: ts, drop: dropped})
	}
}

// add puts ts in the set, evicting the oldest past EchoSize; o.mu is held
// (or o not yet shared). It returns the evicted timestamp (0: none) and
// whether ts was new.
func (o *OwnSends) add(ts int64) (dropped int64, fresh bool) {
	if _, ok := o.set[ts]; ok {
		return 0, false
	}
	if len(o.ring) < EchoSize {
		o.ring = append(o.ring, ts)
	} else {
		dropped = o.ring[o.next]
		delete(o.set, dropped)
		o.ring[o.next] = ts
		o.next = (o.next + 1) % EchoSize
	}
	o.set[ts] = struct{}{}
	return dropped, true
}

// Echo reports whether ts is the timestamp of one of the bot's sends of the
// last EchoWindow before now.
func (o *OwnSends) Echo(ts int64, now time.Time) bool {
	if o == nil || ts < now.Add(-EchoWindow).UnixMilli() {
		return false // too old to be remembered: the file no longer has it either
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.set[ts]
	return ok
}

// Len is how many sends are remembered.
func (o *OwnSends) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.set)
}

func sendKey(ts int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(ts)) }

func decodeSendKey(k []byte) int64 {
	if len(k) != 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(k))
}

// sendRecord writes one send and forgets the one it evicted from memory.
type sendRecord struct{ add, drop int64 }

func (r sendRecord) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists(bucketOwnSends)
	if err != nil {
		return err
	}
	if r.drop != 0 {
		if err := b.Delete(sendKey(r.drop)); err != nil {
			return err
		}
	}
	return b.Put(sendKey(r.add), nil)
}

// pruneSends forgets, at start, the sends older than before and those past
// EchoSize (all but keep), so the bucket stays as bounded as the memory.
type pruneSends struct {
	before int64
	keep   []int64
}

func (r pruneSends) Commit(tx *bolt.Tx) error {
	b := tx.Bucket(bucketOwnSends)
	if b == nil {
		return nil
	}
	first := r.before
	if len(r.keep) > 0 {
		first = max(first, r.keep[0])
	}
	c := b.Cursor()
	for k, _ := c.First(); k != nil && decodeSendKey(k) < first; k, _ = c.First() {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}
