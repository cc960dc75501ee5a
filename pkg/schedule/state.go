package schedule

import (
	"encoding/binary"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

// The scheduler's records in the state file, bucket "schedule":
//   - "slot\x00" + Slot.String() → 8 bytes, big-endian Unix ns: every time
//     of the slot up to this one is done (posted, skipped, or before the
//     slot was in the plan);
//   - "plan" → the plan set in chat (Replace), which wins over SCHEDULE
//     until Reset; absent: SCHEDULE's.
var bucket = []byte("schedule")

const slotPrefix = "slot\x00"

var planKey = []byte("plan")

// saved is what the last process left.
type saved struct {
	done    map[string]time.Time // slot → done up to
	plan    string
	hasPlan bool
}

func load(s *store.Store) (saved, error) {
	out := saved{done: map[string]time.Time{}}
	err := s.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucket)
		if b == nil {
			return nil
		}
		if v := b.Get(planKey); v != nil {
			out.plan, out.hasPlan = string(v), true
		}
		c := b.Cursor()
		for k, v := c.Seek([]byte(slotPrefix)); k != nil && strings.HasPrefix(string(k), slotPrefix); k, v = c.Next() {
			if len(v) == 8 {
				out.done[strings.TrimPrefix(string(k), slotPrefix)] = time.Unix(0, int64(binary.BigEndian.Uint64(v)))
			}
		}
		return nil
	})
	return out, err
}

// doneRecord says the slot is done up to at.
type doneRecord struct {
	slot string
	at   time.Time
}

func (r doneRecord) Check() error { return store.CheckPut("schedule", []byte(slotPrefix+r.slot), 8) }

func (r doneRecord) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	return b.Put([]byte(slotPrefix+r.slot), binary.BigEndian.AppendUint64(nil, uint64(r.at.UnixNano())))
}

// planRecord keeps the plan set in chat (set) or drops it (!set), and
// forgets the slots no longer in the plan in force.
type planRecord struct {
	plan   string
	set    bool
	forget []string
}

func (r planRecord) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	for _, s := range r.forget {
		if err := b.Delete([]byte(slotPrefix + s)); err != nil {
			return err
		}
	}
	if !r.set {
		return b.Delete(planKey)
	}
	return b.Put(planKey, []byte(r.plan))
}
