// Package store keeps the bot's tallies and cooldowns in an embedded bbolt
// file, so a restart resets neither. Every use is one fsynced transaction:
// once Use returns, a kill -9 cannot lose it.
package store

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketUses  = []byte("uses")  // sender \x00 command → last use (unix ns) + count
	bucketChats = []byte("chats") // chat \x00 command → count
)

// Store is the state file. It is safe for concurrent use.
type Store struct {
	db *bolt.DB
}

// Open opens (creating with mode 0600, in a 0700 folder) the state file at path.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: 5 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketUses, bucketChats} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: create buckets: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// UseResult tells whether a use passed its cooldown.
type UseResult struct {
	Allowed   bool
	Remaining time.Duration // cooldown left when not allowed
	Count     int64         // the sender's uses of the command, this one included
}

// Use checks sender's cooldown for command and, if it has passed, records the
// use in chat at now — both in one transaction. The caller holds the sender's
// lock, so two quick uses cannot both pass.
func (s *Store) Use(sender, chat, command string, now time.Time, cooldown time.Duration) (UseResult, error) {
	var r UseResult
	err := s.db.Update(func(tx *bolt.Tx) error {
		uses := tx.Bucket(bucketUses)
		k := key(sender, command)
		last, count := decodeUse(uses.Get(k))
		if cooldown > 0 && !last.IsZero() {
			if left := last.Add(cooldown).Sub(now); left > 0 {
				r = UseResult{Remaining: left, Count: count}
				return nil
			}
		}
		count++
		r = UseResult{Allowed: true, Count: count}
		if err := uses.Put(k, encodeUse(now, count)); err != nil {
			return err
		}
		chats := tx.Bucket(bucketChats)
		ck := key(chat, command)
		n := int64(0)
		if v := chats.Get(ck); len(v) == 8 {
			n = int64(binary.BigEndian.Uint64(v))
		}
		return chats.Put(ck, binary.BigEndian.AppendUint64(nil, uint64(n+1)))
	})
	if err != nil {
		return UseResult{}, fmt.Errorf("record use of %s: %w", command, err)
	}
	return r, nil
}

// Tally is one command's use count and last use by one sender.
type Tally struct {
	Command string
	Count   int64
	Last    time.Time
}

// Tallies lists sender's uses per command, by command name.
func (s *Store) Tallies(sender string) ([]Tally, error) {
	var ts []Tally
	prefix := []byte(sender + "\x00")
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketUses).Cursor()
		for k, v := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = c.Next() {
			last, count := decodeUse(v)
			ts = append(ts, Tally{Command: string(k[len(prefix):]), Count: count, Last: last})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read tallies: %w", err)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Command < ts[j].Command })
	return ts, nil
}

// ChatCount is how often command was used in chat.
func (s *Store) ChatCount(chat, command string) (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketChats).Get(key(chat, command)); len(v) == 8 {
			n = int64(binary.BigEndian.Uint64(v))
		}
		return nil
	})
	return n, err
}

func key(a, b string) []byte { return []byte(a + "\x00" + b) }

func encodeUse(last time.Time, count int64) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(last.UnixNano()))
	return binary.BigEndian.AppendUint64(b, uint64(count))
}

func decodeUse(v []byte) (time.Time, int64) {
	if len(v) != 16 {
		return time.Time{}, 0
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v[:8]))), int64(binary.BigEndian.Uint64(v[8:]))
}

var bucketMeta = []byte("meta")

// Secret returns the named secret, creating it with gen on first use, so it
// stays the same across restarts (the sender-hash key: a sender keeps one
// hash in Jaeger).
func (s *Store) Secret(name string, gen func() ([]byte, error)) ([]byte, error) {
	var out []byte
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		if v := b.Get([]byte(name)); v != nil {
			out = append([]byte(nil), v...)
			return nil
		}
		if out, err = gen(); err != nil {
			return err
		}
		return b.Put([]byte(name), out)
	})
	if err != nil {
		return nil, fmt.Errorf("secret %s: %w", name, err)
	}
	return out, nil
}
