// Package journal records every frame the bot accepts in the state file,
// through the store's group-commit writer, and forgets it once its outcome
// is final. Frames a dead process left behind are replayed by the next one.
//
// Guarantee: at least once. A frame accepted and not finished when the
// process died is run again at the next start if it is younger than
// REPLAY_MAX_AGE (older ones are dropped, logged and counted); a frame whose
// reply went out within the last commit interval before a crash (its "done"
// not yet on disk) is answered twice. The journal is bounded in frames and
// bytes: a frame that does not fit is run all the same, unjournaled, and
// counted.
package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

var bucket = []byte("journal") // id (8 bytes big-endian) → entry

// Config bounds the journal.
type Config struct {
	MaxFrames int   // frames pending at once; 0: no journal
	MaxBytes  int64 // bytes of pending frames
}

// Entry is one journaled frame.
type Entry struct {
	ID        uint64
	ReadAt    time.Time
	Synthetic bool
	Raw       []byte
}

// Stats are the journal's figures for /healthz and /metrics.
type Stats struct {
	Pending   int   `json:"pending"`     // accepted, outcome not final
	Replayed  int64 `json:"replayed"`    // run again at this start
	TooOld    int64 `json:"dropped_old"` // left by the last process, older than REPLAY_MAX_AGE
	Full      int64 `json:"full"`        // accepted while the journal was full: run unjournaled
	Bytes     int64 `json:"bytes"`       // bytes pending
	MaxFrames int   `json:"max_frames"`
}

// Journal is safe for concurrent use.
type Journal struct {
	cfg Config
	w   *store.Writer

	mu      sync.Mutex
	next    uint64
	pending map[uint64]int64 // id → bytes
	stats   Stats
}

// Open reads what the last process left in the journal of s and returns the
// journal and those entries, oldest first. The caller replays or drops each
// (Replayed, DropOld) before new frames come in.
func Open(s *store.Store, cfg Config) (*Journal, []Entry, error) {
	j := &Journal{cfg: cfg, w: s.Writer(), pending: map[uint64]int64{}, next: 1}
	j.stats.MaxFrames = cfg.MaxFrames
	var left []Entry
	err := s.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			e, err := decode(k, v)
			if err != nil {
				return err
			}
			left = append(left, e)
			return nil
		})
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read journal: %w", err)
	}
	sort.Slice(left, func(a, b int) bool { return left[a].ID < left[b].ID })
	for _, e := range left {
		j.pending[e.ID] = int64(len(e.Raw))
		j.stats.Bytes += int64(len(e.Raw))
		j.next = max(j.next, e.ID+1)
	}
	j.stats.Pending = len(j.pending)
	return j, left, nil
}

// Enabled reports whether frames are journaled at all.
func (j *Journal) Enabled() bool { return j != nil && j.cfg.MaxFrames > 0 }

// Add journals a frame just accepted and returns its id, or 0 when the
// journal is off or full (counted): the frame then runs unjournaled.
func (j *Journal) Add(raw []byte, readAt time.Time, synthetic bool) uint64 {
	if !j.Enabled() {
		return 0
	}
	size := int64(len(raw))
	j.mu.Lock()
	if len(j.pending) >= j.cfg.MaxFrames || j.stats.Bytes+size > j.cfg.MaxBytes {
		j.stats.Full++
		j.mu.Unlock()
		return 0
	}
	id := j.next
	j.next++
	j.pending[id] = size
	j.stats.Bytes += size
	j.stats.Pending = len(j.pending)
	// Queued under the lock, so the writer gets puts in id order.
	_, err := j.w.Add(put{id: id, value: encode(readAt, synthetic, raw)})
	if err != nil { // the file is closing: the frame runs, unjournaled
		delete(j.pending, id)
		j.stats.Bytes -= size
		j.stats.Pending = len(j.pending)
		j.mu.Unlock()
		return 0
	}
	j.mu.Unlock()
	return id
}

// Done forgets the frame of id: its outcome is final. 0 is ignored.
func (j *Journal) Done(id uint64) {
	if id == 0 || j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	size, ok := j.pending[id]
	if !ok {
		return
	}
	delete(j.pending, id)
	j.stats.Bytes -= size
	j.stats.Pending = len(j.pending)
	_, _ = j.w.Add(del{id: id}) // closed: the entry stays and is replayed, the at-least-once side
}

// Replayed counts an entry of Open run again.
func (j *Journal) Replayed() {
	j.mu.Lock()
	j.stats.Replayed++
	j.mu.Unlock()
}

// DropOld forgets an entry of Open too old to replay, and counts it.
func (j *Journal) DropOld(id uint64) {
	j.mu.Lock()
	j.stats.TooOld++
	j.mu.Unlock()
	j.Done(id)
}

// Stats reports the journal now.
func (j *Journal) Stats() Stats {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.stats
}

// put and del are the journal's records for the store's writer.
type put struct {
	id    uint64
	value []byte
}

func (p put) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	return b.Put(binary.BigEndian.AppendUint64(nil, p.id), p.value)
}

type del struct{ id uint64 }

func (d del) Commit(tx *bolt.Tx) error {
	b := tx.Bucket(bucket)
	if b == nil {
		return nil
	}
	return b.Delete(binary.BigEndian.AppendUint64(nil, d.id))
}

// An entry's value: read time (unix ns, 8 bytes), flags (1 byte: synthetic), the raw frame.
func encode(readAt time.Time, synthetic bool, raw []byte) []byte {
	v := make([]byte, 0, 9+len(raw))
	v = binary.BigEndian.AppendUint64(v, uint64(readAt.UnixNano()))
	flags := byte(0)
	if synthetic {
		flags = 1
	}
	v = append(v, flags)
	return append(v, raw...)
}

var errBadEntry = errors.New("bad journal entry")

func decode(k, v []byte) (Entry, error) {
	if len(k) != 8 || len(v) < 9 {
		return Entry{}, fmt.Errorf("%w: key %d bytes, value %d bytes", errBadEntry, len(k), len(v))
	}
	return Entry{
		ID:        binary.BigEndian.Uint64(k),
		ReadAt:    time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))),
		Synthetic: v[8]&1 != 0,
		Raw:       append([]byte(nil), v[9:]...),
	}, nil
}
