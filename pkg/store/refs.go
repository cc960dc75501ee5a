package store

import (
	"encoding/binary"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// The last use of each sender and command remembers the timestamp of the
// message it was for (Ref), so that a frame replayed after a crash knows its
// own use (Store.Use) instead of meeting it as a cooldown. The timestamps
// live in a bucket of their own, written in the use's record: a file stays
// one an older release opens with every tally (it ignores the bucket), and a
// file of an older release opens with no timestamps.

// loadRefs reads the uses' message timestamps into memory; load has read
// the uses. A timestamp without its use, or of another length, is skipped.
func (s *Store) loadRefs(tx *bolt.Tx) error {
	b := tx.Bucket(bucketRefs)
	if b == nil {
		return nil
	}
	err := b.ForEach(func(k, v []byte) error {
		sender, command, ok := strings.Cut(string(k), "\x00")
		u, found := s.uses[sender][command]
		if !ok || !found || len(v) != 8 {
			return nil
		}
		u.ref = int64(binary.BigEndian.Uint64(v))
		s.uses[sender][command] = u
		return nil
	})
	if err != nil {
		return fmt.Errorf("read uses' messages: %w", err)
	}
	return nil
}

// putRef writes ref as the message of the use of key; 0 deletes it, so
// that an older message's timestamp never stands for a newer use.
func putRef(tx *bolt.Tx, key []byte, ref int64) error {
	b, err := tx.CreateBucketIfNotExists(bucketRefs)
	if err != nil {
		return err
	}
	if ref == 0 {
		return b.Delete(key)
	}
	return b.Put(key, binary.BigEndian.AppendUint64(nil, uint64(ref)))
}
