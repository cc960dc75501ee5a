// Package journal records every frame the bot accepts in the state file,
// through the store's group-commit writer, and forgets it once its outcome
// is final. Frames a dead process left behind are replayed by the next one.
//
// Guarantee: at least once. A frame accepted and not finished when the
// process died is run again at the next start if it is younger than
// REPLAY_MAX_AGE (older ones are dropped, logged and counted); a frame whose
// reply went out within the last commit interval before a crash (its removal
// not yet on disk) is answered twice. The journal is bounded in frames and
// bytes: a frame that does not fit is run all the same, unjournaled, and
// counted.
//
// The journal also keeps the duplicate filter's records: when a frame that
// carries a (sender, timestamp) pair is finished, the pair goes into the state
// file in the same commit as the entry's removal, so a frame answered before
// a restart is known to the next process (Left.Seen) and is not answered
// again if it arrives once more. They are bounded in count (Config.MaxSeen),
// the oldest pruned in the commit that adds one too many.
package journal

import (
	"context"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

var (
	bucket     = []byte("journal") // id (8 bytes big-endian) → entry
	bucketSeen = []byte("seen")    // finished at (unix ns) + timestamp (8 bytes each, big-endian) + sender → nothing
)

// Seen is the duplicate filter's key of a frame: its sender and the
// message's timestamp. The zero Seen is no key.
type Seen struct {
	Sender    string
	Timestamp int64
}

// SeenAt is a Seen record read back from the file, with when its frame
// was finished.
type SeenAt struct {
	Seen
	At time.Time
}

// Entry is one journaled frame.
type Entry struct {
	ID        uint64 // given by Add
	ReadAt    time.Time
	Synthetic bool
	Line      bool // Raw is the JSON-RPC line the webhook got, not the bare frame
	Seen      Seen // zero if the frame carried none
	// Attempts is how many times a process has started to replay the frame
	// (Attempt); 0 for a frame not replayed yet, and for an entry written
	// before the count existed.
	Attempts uint8
	Raw      []byte
}

// Stats are the journal's figures for /healthz and /metrics.
type Stats struct {
	Pending   int   `json:"pending"`     // accepted, outcome not final
	Replayed  int64 `json:"replayed"`    // run again at this start
	TooOld    int64 `json:"dropped_old"` // left by the last process, older than REPLAY_MAX_AGE
	Full      int64 `json:"full"`        // accepted while the journal was full: run unjournaled
	Refused   int64 `json:"refused"`     // left by the last process, refused at intake on replay (SENDER_QUEUE, QUEUE_BYTES)
	Poison    int64 `json:"poison"`      // left by the last process, replayed REPLAY_MAX_ATTEMPTS times already: dropped
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

// pending is what the journal keeps in memory of a frame not finished.
type pending struct {
	size int64
	seen Seen
}

// Enabled reports whether frames are journaled at all.
func (j *Journal) Enabled() bool { return j != nil && j.cfg.MaxFrames > 0 }

// Add journals e, a frame just accepted (e.ID is ignored), and returns its
// id, or 0 when the journal is off or full (counted): the frame then runs
// unjournaled. It never waits for the disk. e.Seen is the frame's duplicate
// filter key, written to the file when the frame is finished; zero: none.
func (j *Journal) Add(e Entry) uint64 {
	if !j.Enabled() {
		return 0
	}
	size := int64(len(e.Raw))
	j.mu.Lock()
	if len(j.pending) >= j.cfg.MaxFrames || j.stats.Bytes+size > j.cfg.MaxBytes {
		j.stats.Full++
		j.mu.Unlock()
		return 0
	}
	id := j.next
	j.next++
	j.pending[id] = pending{size: size, seen: e.Seen}
	j.stats.Bytes += size
	j.stats.Pending = len(j.pending)
	// Queued under the lock, so the writer gets puts in id order.
	_, err := j.w.Add(put{id: id, value: encode(e)})
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

// Finish forgets the frame of id: its outcome is final. The entry's removal
// and the frame's duplicate filter record go to the file in one commit.
// 0 is ignored.
func (j *Journal) Finish(id uint64) { j.forget(id, true, nil) }

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
	r := finish{id: id}
	// A sender too long for a key (over bolt.MaxKeySize) gets no Seen record:
	// the state writer would drop the whole record, and the entry with it.
	if seen && p.seen != (Seen{}) && j.cfg.MaxSeen > 0 && 16+len(p.seen.Sender) <= bolt.MaxKeySize {
		r.seen = encodeSeen(SeenAt{Seen: p.seen, At: time.Now()})
		j.seen++
		r.prune = max(j.seen-j.cfg.MaxSeen, 0)
		j.seen -= r.prune
	}
	if _, err := j.w.Add(r); err != nil && r.seen != nil { // closed: the entry stays and is replayed, the at-least-once side
		j.seen -= 1 - r.prune
	}
}

// Stats reports the journal now.
func (j *Journal) Stats() Stats {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.stats
}
