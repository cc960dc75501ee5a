package store

import (
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A sender's record of a command (its tally for !ja, its last use for the
// cooldown, its message timestamp) that has not been used for
// Config.ForgetAfter is deleted, from memory and from the file: at Open and
// by Prune, which the bot calls every PruneEvery. Without it every one-off
// sender (ANSWER_IN=direct or *) stayed for ever: 20,000 of them made an
// 8.4 MB file and 45 MB RSS after a restart. The chats' counts are not per
// sender and stay.

// PruneEvery is how often the running bot prunes.
const PruneEvery = time.Hour

// compactAbove is the file size from which Open rewrites a file whose pages
// are more than half free (bbolt reuses freed pages but never gives them
// back), so the file follows recent activity down as well as up.
const compactAbove = 1 << 20

// pruneRecord deletes the records of keys (sender \x00 command), each only
// if its last use is still the one that was found stale: a use recorded
// after the sweep, queued behind this record, wins either way.
type pruneRecord struct{ keys [][]byte }

// Commit deletes the keys' uses and message timestamps.
func (r pruneRecord) Commit(tx *bolt.Tx) error {
	refs := tx.Bucket(bucketRefs)
	for _, k := range r.keys {
		if err := tx.Bucket(bucketUses).Delete(k); err != nil {
			return err
		}
		if refs != nil {
			if err := refs.Delete(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// Prune forgets every sender's record of a command last used before now
// minus ForgetAfter (0: none ever), in memory at once and in the file with
// the writer's next commit. It returns how many it forgot.
func (s *Store) Prune(now time.Time) (int, error) {
	if s.forgetAfter <= 0 {
		return 0, nil
	}
	cutoff := now.Add(-s.forgetAfter)
	s.mu.Lock()
	defer s.mu.Unlock()
	var r pruneRecord
	before := len(s.uses)
	for sender, t := range s.uses {
		for command, u := range t {
			if u.last.Before(cutoff) {
				r.keys = append(r.keys, key(sender, command))
				delete(t, command)
			}
		}
		if len(t) == 0 {
			delete(s.uses, sender)
		}
	}
	if len(r.keys) == 0 {
		return 0, nil
	}
	if len(s.uses) < before/2 { // a Go map keeps its buckets: a copy gives back the memory
		s.uses = maps.Clone(s.uses)
	}
	// Queued under s.mu, as a use is: the file sees the deletion and any
	// later use of the same key in the order memory did.
	if _, err := s.w.Add(r); err != nil {
		return 0, fmt.Errorf("prune %d unused records: %w", len(r.keys), err)
	}
	return len(r.keys), nil
}

// pruneAtOpen deletes from the file, in one transaction, every use last
// made before cutoff, before load reads it, and says how many.
func pruneAtOpen(db *bolt.DB, cutoff time.Time) (int, error) {
	var stale [][]byte
	err := db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketUses).ForEach(func(k, v []byte) error {
			if last, _ := decodeUse(v); last.Before(cutoff) && strings.Contains(string(k), "\x00") {
				stale = append(stale, append([]byte(nil), k...))
			}
			return nil
		})
	})
	if err != nil || len(stale) == 0 {
		return 0, err
	}
	return len(stale), db.Update(pruneRecord{keys: stale}.Commit)
}

// compactIfSparse rewrites the file at path into a new one beside it and
// puts it in place (a rename: a crash leaves one or the other whole) when
// more than half of its pages are free, and returns the database to use.
// On any failure the file is kept as it is.
func compactIfSparse(db *bolt.DB, path string, log *slog.Logger) *bolt.DB {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() < compactAbove {
		return db
	}
	st := db.Stats()
	if free := int64(st.FreePageN+st.PendingPageN) * int64(db.Info().PageSize); free*2 < fi.Size() {
		return db
	}
	tmp := path + ".compact"
	_ = os.Remove(tmp) // a crash's leftover
	dst, err := compactTo(db, tmp)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		if dst != nil {
			_ = dst.Close()
		}
		_ = os.Remove(tmp)
		log.Warn("state file not compacted; it stays as it is", "path", path, "err", err)
		return db
	}
	syncDir(filepath.Dir(path))
	_ = db.Close()
	if nfi, err := os.Stat(path); err == nil {
		log.Info("state file compacted: its unused records were pruned", "path", path, "bytes_before", fi.Size(), "bytes_after", nfi.Size())
	}
	return dst
}

// compactTo copies db's live records into a new file at tmp (each
// transaction of the copy committed with its fsync).
func compactTo(db *bolt.DB, tmp string) (*bolt.DB, error) {
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: lockWait})
	if err != nil {
		return nil, err
	}
	if err := bolt.Compact(dst, db, 1<<20); err != nil {
		return dst, err
	}
	return dst, nil
}

// syncDir makes a rename in dir durable; an error only loses the rename.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}

// prune is Open's pruning: the records last used before cutoff are deleted,
// and a file left mostly free is compacted. A log nil discards.
func prune(db *bolt.DB, path string, cutoff time.Time, log *slog.Logger) (*bolt.DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	n, err := pruneAtOpen(db, cutoff)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open state %s: prune unused records: %w", path, err)
	}
	if n > 0 {
		log.Info("state: records unused since before STATE_FORGET_AFTER pruned", "path", path, "records", n, "cutoff", cutoff.UTC().Format(time.RFC3339))
	}
	return compactIfSparse(db, path, log), nil
}
