package journal

import (
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

// What the last process left: read at Open, replayed or dropped by the
// caller, each entry's fate counted here.

// Left is what the last process left in the file.
type Left struct {
	Frames []Entry  // journaled and not finished, oldest first: replay or drop each
	Seen   []SeenAt // the duplicate filter's records, oldest first
}

// SeenSince are the Seen records of frames finished after t, oldest first:
// the pairs the next duplicate filter starts with.
func (l Left) SeenSince(t time.Time) []Seen {
	var out []Seen
	for _, s := range l.Seen {
		if s.At.After(t) {
			out = append(out, s.Seen)
		}
	}
	return out
}

// Open reads what the last process left in the journal of s and returns the
// journal and that. The caller replays or drops each frame of it (Replayed,
// DropOld, Refused) before new frames come in. cfg is trusted: package
// config checked it (Config.Validate).
func Open(s *store.Store, cfg Config) (*Journal, Left, error) {
	if cfg.ReplayMaxAttempts == 0 {
		cfg.ReplayMaxAttempts = defaultReplayMaxAttempts
	}
	j := &Journal{cfg: cfg, w: s.Writer(), pending: map[uint64]pending{}, next: 1}
	j.stats.MaxFrames = cfg.MaxFrames
	var left Left
	err := s.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucket); b != nil {
			err := b.ForEach(func(k, v []byte) error {
				e, err := decode(k, v)
				if err != nil {
					return err
				}
				left.Frames = append(left.Frames, e)
				return nil
			})
			if err != nil {
				return err
			}
		}
		b := tx.Bucket(bucketSeen)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error { // keys sort by finish time
			if d, ok := decodeSeen(k); ok {
				left.Seen = append(left.Seen, d)
			}
			j.seen++
			return nil
		})
	})
	if err != nil {
		return nil, Left{}, fmt.Errorf("read journal: %w", err)
	}
	sort.Slice(left.Frames, func(a, b int) bool { return left.Frames[a].ID < left.Frames[b].ID })
	for _, e := range left.Frames {
		j.pending[e.ID] = pending{size: int64(len(e.Raw)), seen: e.Seen}
		j.stats.Bytes += int64(len(e.Raw))
		j.next = max(j.next, e.ID+1)
	}
	j.stats.Pending = len(j.pending)
	return j, left, nil
}

// Replayed counts an entry of Open run again.
func (j *Journal) Replayed() {
	j.mu.Lock()
	j.stats.Replayed++
	j.mu.Unlock()
}

// DropOld forgets an entry of Open too old to replay, and counts it. It
// writes no Seen record: the frame was not answered.
func (j *Journal) DropOld(id uint64) { j.forget(id, false, &j.stats.TooOld) }

// Refused forgets an entry of Open that the intake refused on replay (the
// sender's queue or QUEUE_BYTES full: a drop, counted there too), and
// counts it, so that it does not stay in the journal for ever. It writes no
// Seen record: the frame was not answered.
func (j *Journal) Refused(id uint64) { j.forget(id, false, &j.stats.Refused) }

// Attempt records, before e (an entry of Open) is replayed, one more
// attempt in its entry, so that a replay the process dies in counts: the
// caller has the updates on disk (Sync) before the frame runs. An entry
// replayed ReplayMaxAttempts times already is forgotten instead, counted as
// poison, and Attempt returns false: each of those replays ended the
// process before the frame's outcome was final.
func (j *Journal) Attempt(e Entry) (Entry, bool) {
	if int(e.Attempts) >= j.cfg.ReplayMaxAttempts {
		j.forget(e.ID, false, &j.stats.Poison)
		return e, false
	}
	e.Attempts++
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, ok := j.pending[e.ID]; ok {
		j.w.Add(put{id: e.ID, value: encode(e)}) // closed: the frame runs, its count not raised
	}
	return e, true
}
