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
//
// The journal also keeps the duplicate filter's records: when a frame that
// carries a (sender, timestamp) pair is done, the pair goes into the state
// file in the same commit as the entry's removal, so a frame answered before
// a restart is known to the next process (Left.Seen) and is not answered
// again if it arrives once more. They are bounded in count (Config.MaxSeen),
// the oldest pruned in the commit that adds one too many.
package journal

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

var (
	bucket     = []byte("journal") // id (8 bytes big-endian) → entry
	bucketSeen = []byte("seen")    // done at (unix ns) + timestamp (8 bytes each, big-endian) + sender → nothing
)

// Seen is the duplicate filter's key of a frame: its sender and the
// message's timestamp. The zero Seen is no key.
type Seen struct {
	Sender    string
	Timestamp int64
}

// Done is a Seen record read back from the file: when its frame was done.
type Done struct {
	Seen
	At time.Time
}

// Left is what the last process left in the file.
type Left struct {
	Frames []Entry // journaled and not done, oldest first: replay or drop each
	Seen   []Done  // the duplicate filter's records, oldest first
}

// Entry is one journaled frame.
type Entry struct {
	ID        uint64
	ReadAt    time.Time
	Synthetic bool
	Seen      Seen // zero if the frame carried none
	Raw       []byte
}

// Stats are the journal's figures for /healthz and /metrics.
type Stats struct {
	Pending   int   `json:"pending"`     // accepted, outcome not final
	Replayed  int64 `json:"replayed"`    // run again at this start
	TooOld    int64 `json:"dropped_old"` // left by the last process, older than REPLAY_MAX_AGE
	Full      int64 `json:"full"`        // accepted while the journal was full: run unjournaled
	Refused   int64 `json:"refused"`     // left by the last process, refused at intake on replay (SENDER_QUEUE, QUEUE_BYTES)
	Bytes     int64 `json:"bytes"`       // bytes pending
	MaxFrames int   `json:"max_frames"`
}

// Journal is safe for concurrent use.
type Journal struct {
	cfg Config
	w   *store.Writer

	mu      sync.Mutex
	next    uint64
	pending map[uint64]pending
	seen    int // Seen records in the file once the queued records are committed
	stats   Stats
}

// pending is what the journal keeps in memory of a frame not done.
type pending struct {
	size int64
	seen Seen
}

// Open reads what the last process left in the journal of s and returns the
// journal and that. The caller replays or drops each frame of it (Replayed,
// DropOld, Refused) before new frames come in.
func Open(s *store.Store, cfg Config) (*Journal, Left, error) {
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
		return b.ForEach(func(k, _ []byte) error { // keys sort by done time
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

// Enabled reports whether frames are journaled at all.
func (j *Journal) Enabled() bool { return j != nil && j.cfg.MaxFrames > 0 }

// Add journals a frame just accepted and returns its id, or 0 when the
// journal is off or full (counted): the frame then runs unjournaled. It
// never waits for the disk. seen is the frame's duplicate filter key, written
// to the file when the frame is done; zero: none.
func (j *Journal) Add(raw []byte, readAt time.Time, synthetic bool, seen Seen) uint64 {
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
	j.pending[id] = pending{size: size, seen: seen}
	j.stats.Bytes += size
	j.stats.Pending = len(j.pending)
	// Queued under the lock, so the writer gets puts in id order.
	_, err := j.w.Add(put{id: id, value: encode(readAt, synthetic, seen, raw)})
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

// Sync waits until every frame journaled so far is on disk, having the state
// writer commit now rather than at the end of its window (store.Writer.Flush).
// The webhook calls it before it answers 200, so a frame the REST API was told
// is taken survives a kill -9 right after. With the journal off it returns at
// once.
func (j *Journal) Sync(ctx context.Context) error {
	if !j.Enabled() {
		return nil
	}
	if err := j.w.Flush(ctx, j.w.Last()); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// Done forgets the frame of id: its outcome is final. The entry's removal
// and the frame's duplicate filter record go to the file in one commit.
// 0 is ignored.
func (j *Journal) Done(id uint64) { j.forget(id, true, nil) }

// forget removes id's entry; with seen, it adds the frame's Seen record
// and prunes the oldest beyond MaxSeen, in the same record. count is the
// counter to add one to if the entry was there; nil: none.
func (j *Journal) forget(id uint64, seen bool, count *int64) {
	if id == 0 || j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	p, ok := j.pending[id]
	if !ok {
		return
	}
	if count != nil {
		*count++
	}
	delete(j.pending, id)
	j.stats.Bytes -= p.size
	j.stats.Pending = len(j.pending)
	r := done{id: id}
	// A sender too long for a key (over bolt.MaxKeySize) gets no Seen record:
	// the state writer would drop the whole record, and the entry with it.
	if seen && p.seen != (Seen{}) && j.cfg.MaxSeen > 0 && 16+len(p.seen.Sender) <= bolt.MaxKeySize {
		r.seen = encodeSeen(Done{Seen: p.seen, At: time.Now()})
		j.seen++
		r.prune = max(j.seen-j.cfg.MaxSeen, 0)
		j.seen -= r.prune
	}
	if _, err := j.w.Add(r); err != nil && r.seen != nil { // closed: the entry stays and is replayed, the at-least-once side
		j.seen -= 1 - r.prune
	}
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

// done removes an entry and, if seen is set, adds its Seen record and
// removes the prune oldest ones: one record, so one commit.
type done struct {
	id    uint64
	seen  []byte // the Seen record's key; nil: none
	prune int
}

func (d done) Commit(tx *bolt.Tx) error {
	if b := tx.Bucket(bucket); b != nil {
		if err := b.Delete(binary.BigEndian.AppendUint64(nil, d.id)); err != nil {
			return err
		}
	}
	if d.seen == nil {
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketSeen)
	if err != nil {
		return err
	}
	if err := b.Put(d.seen, nil); err != nil {
		return err
	}
	c := b.Cursor()
	for k, _ := c.First(); k != nil && d.prune > 0; k, _ = c.First() {
		if err := c.Delete(); err != nil {
			return err
		}
		d.prune--
	}
	return nil
}

// Flags of an entry.
const (
	flagSynthetic = 1 << iota
	flagSeen      // the value carries the frame's Seen
)

// An entry's value: read time (unix ns, 8 bytes), flags (1 byte); with
// flagSeen the message's timestamp (8 bytes), the sender's length (2 bytes)
// and the sender; then the raw frame.
func encode(readAt time.Time, synthetic bool, seen Seen, raw []byte) []byte {
	v := make([]byte, 0, 9+18+len(seen.Sender)+len(raw))
	v = binary.BigEndian.AppendUint64(v, uint64(readAt.UnixNano()))
	flags := byte(0)
	if synthetic {
		flags |= flagSynthetic
	}
	if seen != (Seen{}) && len(seen.Sender) <= 0xffff {
		flags |= flagSeen
	}
	v = append(v, flags)
	if flags&flagSeen != 0 {
		v = binary.BigEndian.AppendUint64(v, uint64(seen.Timestamp))
		v = binary.BigEndian.AppendUint16(v, uint16(len(seen.Sender)))
		v = append(v, seen.Sender...)
	}
	return append(v, raw...)
}

var errBadEntry = errors.New("bad journal entry")

func decode(k, v []byte) (Entry, error) {
	if len(k) != 8 || len(v) < 9 {
		return Entry{}, fmt.Errorf("%w: key %d bytes, value %d bytes", errBadEntry, len(k), len(v))
	}
	e := Entry{
		ID:        binary.BigEndian.Uint64(k),
		ReadAt:    time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))),
		Synthetic: v[8]&flagSynthetic != 0,
	}
	flags, v := v[8], v[9:]
	if flags&flagSeen != 0 {
		if len(v) < 10 || len(v) < 10+int(binary.BigEndian.Uint16(v[8:10])) {
			return Entry{}, fmt.Errorf("%w: id %d: sender cut short", errBadEntry, e.ID)
		}
		n := int(binary.BigEndian.Uint16(v[8:10]))
		e.Seen = Seen{Timestamp: int64(binary.BigEndian.Uint64(v[:8])), Sender: string(v[10 : 10+n])}
		v = v[10+n:]
	}
	e.Raw = append([]byte(nil), v...)
	return e, nil
}

// A Seen record's key: done at (unix ns), the message's timestamp (8 bytes
// each), the sender. Keys sort by done time, so the first is the oldest.
func encodeSeen(d Done) []byte {
	k := make([]byte, 0, 16+len(d.Sender))
	k = binary.BigEndian.AppendUint64(k, uint64(d.At.UnixNano()))
	k = binary.BigEndian.AppendUint64(k, uint64(d.Timestamp))
	return append(k, d.Sender...)
}

func decodeSeen(k []byte) (Done, bool) {
	if len(k) < 17 {
		return Done{}, false
	}
	return Done{
		At:   time.Unix(0, int64(binary.BigEndian.Uint64(k[:8]))),
		Seen: Seen{Timestamp: int64(binary.BigEndian.Uint64(k[8:16])), Sender: string(k[16:])},
	}, true
}
