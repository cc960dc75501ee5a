// Package store keeps the bot's tallies and cooldowns in memory and makes
// them durable in an embedded bbolt file, so a restart resets neither. A use
// is checked and recorded in memory; one writer goroutine commits the changes
// of each STATE_COMMIT_INTERVAL in one transaction (group commit: one fsync
// for all of them), so the disk is off every reply's path. Close commits
// everything still queued. A kill -9 or a power loss forgets at most the uses
// of the last commit interval (and of the commit then running), and the file
// always holds the state after some prefix of the uses, in order.
package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketUses  = []byte("uses")     // sender \x00 command → last use (unix ns) + count
	bucketChats = []byte("chats")    // chat \x00 command → count
	bucketRefs  = []byte("use_refs") // sender \x00 command → the last use's message timestamp (Ref)
)

// Store is the state: in memory, committed to the file by its Writer. It is
// safe for concurrent use.
type Store struct {
	db *bolt.DB
	w  *Writer

	forgetAfter time.Duration // Config.ForgetAfter: a record unused this long is pruned

	mu    sync.Mutex
	uses  map[string]map[string]use // sender → command → use
	chats map[string]int64          // chat \x00 command → count
}

// use is one sender's tally of one command.
type use struct {
	last  time.Time
	count int64
	ref   int64 // the message timestamp of the last use (Ref.Timestamp); 0: unknown
}

// Open opens (creating with mode 0600, in a 0700 folder) the state file at
// c.Path, reads it into memory and starts its writer. A damaged file is
// ErrDamaged (or moved aside, c.Damaged), one another process holds is
// ErrHeld, and neither panics; a missing or empty file starts fresh, and a
// mode looser than 0600 is tightened, each with a log line. log gets commit
// failures and the file's state at open; nil: not logged.
func Open(c Config, log *slog.Logger) (*Store, error) {
	path := c.Path
	db, err := openFile(c, log)
	if err != nil {
		return nil, err
	}
	if c.ForgetAfter > 0 {
		if db, err = prune(db, path, time.Now().Add(-c.ForgetAfter), log); err != nil {
			return nil, err
		}
	}
	s := &Store{db: db, forgetAfter: c.ForgetAfter, uses: map[string]map[string]use{}, chats: map[string]int64{}}
	if err := db.View(s.load); err != nil {
		db.Close()
		return nil, fmt.Errorf("open state %s: %w", path, err)
	}
	s.w = newWriter(db, c.CommitInterval, log)
	return s, nil
}

// load reads the file's tallies into memory.
func (s *Store) load(tx *bolt.Tx) error {
	err := tx.Bucket(bucketUses).ForEach(func(k, v []byte) error {
		sender, command, ok := strings.Cut(string(k), "\x00")
		if !ok {
			return nil
		}
		last, count := decodeUse(v)
		s.tallyOf(sender)[command] = use{last: last, count: count}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read uses: %w", err)
	}
	if err := s.loadRefs(tx); err != nil {
		return err
	}
	return tx.Bucket(bucketChats).ForEach(func(k, v []byte) error {
		if len(v) == 8 {
			s.chats[string(k)] = int64(binary.BigEndian.Uint64(v))
		}
		return nil
	})
}

// tallyOf returns sender's map, creating it; s.mu is held (or s is not shared yet).
func (s *Store) tallyOf(sender string) map[string]use {
	m := s.uses[sender]
	if m == nil {
		m = map[string]use{}
		s.uses[sender] = m
	}
	return m
}

// Close commits every change still queued, stops the writer and closes the file.
func (s *Store) Close() error {
	err := s.w.Close()
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	return err
}

// Writer is the state file's writer, for other kinds of records to be
// committed through the same group commit.
func (s *Store) Writer() *Writer { return s.w }

// UseResult tells whether a use passed its cooldown.
type UseResult struct {
	Allowed   bool
	Remaining time.Duration // cooldown left when not allowed
	Count     int64         // the sender's uses of the command, this one included
	// Again says the use was the replayed message's own, recorded before
	// the restart (Ref): allowed, and not recorded a second time.
	Again bool
}

// Ref names the message a use is for. Timestamp is the message's (with
// the sender, the duplicate filter's key; 0: none); Replayed says the frame
// is a replay of one a dead process left in the journal.
type Ref struct {
	Timestamp int64
	Replayed  bool
}

// Use checks sender's cooldown for command and, if it has passed, records the
// use in chat at now, with ref's timestamp, in memory and atomically, and
// queues it for the next commit. Two uses cannot both pass one cooldown. A
// replayed message (ref.Replayed) whose own use is the last one recorded
// (the same timestamp: the process died after recording it, before its
// frame was done) is allowed Again, whatever the cooldown, and nothing is
// recorded: the frame is the one that used it.
func (s *Store) Use(sender, chat, command string, now time.Time, cooldown time.Duration, ref Ref) (UseResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tallyOf(sender)
	u := t[command]
	if ref.Replayed && ref.Timestamp != 0 && u.ref == ref.Timestamp {
		return UseResult{Allowed: true, Count: u.count, Again: true}, nil
	}
	if cooldown > 0 && !u.last.IsZero() {
		if left := u.last.Add(cooldown).Sub(now); left > 0 {
			return UseResult{Remaining: left, Count: u.count}, nil
		}
	}
	ck := chat + "\x00" + command
	r := useRecord{key: key(sender, command), use: encodeUse(now, u.count+1), chatKey: []byte(ck), chat: s.chats[ck] + 1, ref: ref.Timestamp}
	// Queued under s.mu, so the file receives the uses in the order memory did.
	if _, err := s.w.Add(r); err != nil {
		return UseResult{}, fmt.Errorf("record use of %s: %w", command, err)
	}
	t[command] = use{last: now, count: u.count + 1, ref: ref.Timestamp}
	s.chats[ck] = r.chat
	return UseResult{Allowed: true, Count: u.count + 1}, nil
}

// useRecord is one use as the file stores it: the sender's tally and the chat's count.
type useRecord struct {
	key, use, chatKey []byte
	chat              int64
	ref               int64 // the message's timestamp; 0: the key's ref is deleted
}

// Check refuses a use whose sender or chat key bbolt cannot take (over
// bolt.MaxKeySize): its cooldown holds in memory, its tally is not written.
func (r useRecord) Check() error {
	if err := CheckPut("use", r.key, len(r.use)); err != nil {
		return err
	}
	return CheckPut("use", r.chatKey, 8)
}

// Commit writes the use.
func (r useRecord) Commit(tx *bolt.Tx) error {
	if err := tx.Bucket(bucketUses).Put(r.key, r.use); err != nil {
		return err
	}
	if err := putRef(tx, r.key, r.ref); err != nil {
		return err
	}
	return tx.Bucket(bucketChats).Put(r.chatKey, binary.BigEndian.AppendUint64(nil, uint64(r.chat)))
}

// Tally is one command's use count and last use by one sender.
type Tally struct {
	Command string
	Count   int64
	Last    time.Time
}

// Tallies lists sender's uses per command, by command name, from memory.
func (s *Store) Tallies(sender string) ([]Tally, error) {
	s.mu.Lock()
	t := s.uses[sender]
	ts := make([]Tally, 0, len(t))
	for c, u := range t {
		ts = append(ts, Tally{Command: c, Count: u.count, Last: u.last})
	}
	s.mu.Unlock()
	sort.Slice(ts, func(i, j int) bool { return ts[i].Command < ts[j].Command })
	return ts, nil
}

// ChatCount is how often command was used in chat.
func (s *Store) ChatCount(chat, command string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chats[chat+"\x00"+command], nil
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

// WaitCommitted waits until every change made before the call is on disk, or
// ctx ends. It does not hurry the writer.
func (s *Store) WaitCommitted(ctx context.Context) error { return s.w.Wait(ctx, s.w.Last()) }

// Stats describe the writer's queue and commits.
func (s *Store) Stats() WriterStats { return s.w.Stats() }
