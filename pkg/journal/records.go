package journal

import (
	"encoding/binary"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

// put and finish are the journal's records for the store's writer: a new
// entry, and the removal of a finished one with its Seen record.
type put struct {
	id    uint64
	value []byte
}

// Check says whether the state file takes the entry (store.Checker): its key
// is 8 bytes, so only a value over bbolt's limit is refused.
func (p put) Check() error { return store.CheckPut("journal entry", make([]byte, 8), len(p.value)) }

func (p put) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	return b.Put(binary.BigEndian.AppendUint64(nil, p.id), p.value)
}

// finish removes an entry and, if seen is set, adds its Seen record and
// removes the prune oldest ones: one record, so one commit.
type finish struct {
	id    uint64
	seen  []byte // the Seen record's key; nil: none
	prune int
}

func (d finish) Commit(tx *bolt.Tx) error {
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
