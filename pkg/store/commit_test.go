package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// snapshot copies the state file as it is now and opens the copy read-only:
// a second handle on what the writer has put in the file (bbolt's lock keeps
// a second handle off the file itself while the store has it open).
func snapshot(t *testing.T, path string) *bolt.DB {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(cp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(cp, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fileUse reads sender's count of command and the chat's count from db.
func fileUse(t *testing.T, db *bolt.DB, sender, chat, command string) (count, chatCount int64) {
	t.Helper()
	err := db.View(func(tx *bolt.Tx) error {
		_, count = decodeUse(tx.Bucket(bucketUses).Get(key(sender, command)))
		if v := tx.Bucket(bucketChats).Get(key(chat, command)); len(v) == 8 {
			chatCount = int64(binary.BigEndian.Uint64(v))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return count, chatCount
}

func waitCommitted(t *testing.T, s *Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.WaitCommitted(ctx); err != nil {
		t.Fatal(err)
	}
}

// A use is in memory at once and in the file after the writer's next commit,
// without Close: the second handle sees it once the commit is signalled.
func TestUseIsOnDiskAfterCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s, err := Open(Config{Path: path, CommitInterval: 10 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Unix(1_700_000_000, 0)
	for i := range 3 {
		if _, err := s.Use("alice", "direct", "pomoc", t0.Add(time.Duration(i)*time.Second), 0, Ref{}); err != nil {
			t.Fatal(err)
		}
	}
	if ts, _ := s.Tallies("alice"); len(ts) != 1 || ts[0].Count != 3 {
		t.Errorf("Tallies before the commit = %+v; want pomoc ×3 from memory", ts)
	}
	waitCommitted(t, s)
	if got, gotChat := fileUse(t, snapshot(t, path), "alice", "direct", "pomoc"); got != 3 || gotChat != 3 {
		t.Errorf("file after the commit: alice %d, chat %d; want 3, 3", got, gotChat)
	}
	if st := s.Stats(); st.Pending != 0 || st.Records != 3 || st.Commits < 1 || st.Commits > 3 {
		t.Errorf("Stats = %+v; want 3 records in 1 to 3 commits, none pending", st)
	}
}

// Close commits what is still queued: with an interval the test never
// reaches, every use is in the file only because of Close (a SIGTERM).
func TestCloseCommitsEverything(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s, err := Open(Config{Path: path, CommitInterval: time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	const uses = 200
	t0 := time.Unix(1_700_000_000, 0)
	for i := range uses {
		if _, err := s.Use(fmt.Sprint("sender", i%10), "direct", "pomoc", t0, 0, Ref{}); err != nil {
			t.Fatal(err)
		}
	}
	if st := s.Stats(); st.Pending != uses || st.Commits != 0 {
		t.Fatalf("Stats before Close = %+v; want %d pending, no commit", st, uses)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Use("late", "direct", "pomoc", t0, 0, Ref{}); !errors.Is(err, ErrClosed) {
		t.Errorf("Use after Close = %v; want ErrClosed", err)
	}
	s, err = Open(Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, _ := s.ChatCount("direct", "pomoc"); n != uses {
		t.Errorf("ChatCount after reopening = %d; want %d", n, uses)
	}
	for i := range 10 {
		if ts, _ := s.Tallies(fmt.Sprint("sender", i)); len(ts) != 1 || ts[0].Count != uses/10 {
			t.Errorf("sender%d's tallies = %+v; want %d", i, ts, uses/10)
		}
	}
}

// A file written by the first release (one transaction per use, the same
// buckets and encodings) opens with its counts and running cooldowns.
func TestOpensFileOfFirstRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	t0 := time.Unix(1_700_000_000, 0)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		uses, err := tx.CreateBucket([]byte("uses"))
		if err != nil {
			return err
		}
		chats, err := tx.CreateBucket([]byte("chats"))
		if err != nil {
			return err
		}
		v := binary.BigEndian.AppendUint64(nil, uint64(t0.UnixNano()))
		if err := uses.Put([]byte("alice\x00kot"), binary.BigEndian.AppendUint64(v, 7)); err != nil {
			return err
		}
		return chats.Put([]byte("direct\x00kot"), binary.BigEndian.AppendUint64(nil, 9))
	})
	if err != nil || db.Close() != nil {
		t.Fatal(err)
	}
	s := open(t, path)
	r, err := s.Use("alice", "direct", "kot", t0.Add(10*time.Second), 30*time.Second, Ref{})
	if err != nil || r.Allowed || r.Remaining != 20*time.Second || r.Count != 7 {
		t.Errorf("Use in the cooldown = %+v, %v; want refused with 20s left, count 7", r, err)
	}
	if r, _ := s.Use("alice", "direct", "kot", t0.Add(time.Minute), 30*time.Second, Ref{}); !r.Allowed || r.Count != 8 {
		t.Errorf("Use after the cooldown = %+v; want allowed, count 8", r)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	if ts, _ := s.Tallies("alice"); len(ts) != 1 || ts[0].Count != 8 || !ts[0].Last.Equal(t0.Add(time.Minute)) {
		t.Errorf("Tallies = %+v; want kot ×8 last at +1m", ts)
	}
	if n, _ := s.ChatCount("direct", "kot"); n != 10 {
		t.Errorf("ChatCount = %d; want 10", n)
	}
}

// Uses of one sender racing each other: exactly one passes a cooldown,
// however the goroutines interleave (the dispatcher also serialises a sender;
// the store does not rely on it).
func TestCooldownRaceOnePasses(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bot.db"))
	defer s.Close()
	t0 := time.Unix(1_700_000_000, 0)
	const racers = 8
	var wg sync.WaitGroup
	results := make(chan bool, racers)
	for range racers {
		wg.Go(func() {
			r, err := s.Use("alice", "direct", "kot", t0, 30*time.Second, Ref{})
			if err != nil {
				t.Error(err)
			}
			results <- r.Allowed
		})
	}
	wg.Wait()
	close(results)
	passed := 0
	for ok := range results {
		if ok {
			passed++
		}
	}
	if passed != 1 {
		t.Errorf("%d of %d racing uses passed; want 1", passed, racers)
	}
}

// flaky is another kind of record (as a journal entry would be) that fails
// its first commits.
type flaky struct {
	fails *int
	key   string
}

func (f flaky) Commit(tx *bolt.Tx) error {
	if *f.fails > 0 {
		*f.fails--
		return errors.New("disk full")
	}
	b, err := tx.CreateBucketIfNotExists([]byte("journal"))
	if err != nil {
		return err
	}
	return b.Put([]byte(f.key), []byte{1})
}

// A failed commit keeps its records queued, in order, and retries them.
func TestWriterRetriesFailedCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	defer s.Close()
	fails := 2
	t0 := time.Unix(1_700_000_000, 0)
	if _, err := s.Writer().Add(flaky{fails: &fails, key: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Use("alice", "direct", "pomoc", t0, 0, Ref{}); err != nil {
		t.Fatal(err)
	}
	waitCommitted(t, s)
	st := s.Stats()
	if st.Failures != 2 || st.LastError != "disk full" || st.Records != 2 || st.Pending != 0 || st.Failing {
		t.Errorf("Stats = %+v; want 2 failures, then both records committed and not failing", st)
	}
	db := snapshot(t, path)
	if n, _ := fileUse(t, db, "alice", "direct", "pomoc"); n != 1 {
		t.Errorf("alice's use in the file = %d; want 1", n)
	}
	err := db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket([]byte("journal")); b == nil || b.Get([]byte("a")) == nil {
			return errors.New("the journal record is not in the file")
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}

// stuck fails every commit until released.
type stuck struct{ released *atomic.Bool }

func (r stuck) Commit(tx *bolt.Tx) error {
	if !r.released.Load() {
		return errors.New("disk full")
	}
	return nil
}

// While commits fail, Stats says failing (so /healthz says degraded); the
// first commit that succeeds clears it.
func TestWriterStatsFailingUntilACommitSucceeds(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "bot.db"))
	defer s.Close()
	var released atomic.Bool
	if _, err := s.Writer().Add(stuck{&released}); err != nil {
		t.Fatal(err)
	}
	for i := 0; s.Stats().Failures == 0; i++ {
		if i == 1000 { // 10 s
			t.Fatalf("no commit failed: %+v", s.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st := s.Stats(); !st.Failing || st.Pending != 1 {
		t.Errorf("Stats after a failed commit = %+v; want failing, 1 pending", st)
	}
	released.Store(true)
	waitCommitted(t, s)
	if st := s.Stats(); st.Failing || st.Pending != 0 {
		t.Errorf("Stats after the retry committed = %+v; want not failing, none pending", st)
	}
}

// Flush has the writer commit at once instead of at the end of its window:
// with an hour's interval, a use is in the file as soon as Flush returns, in
// one commit, and a later use is again left to the (unreached) window.
func TestFlushCommitsNow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s, err := Open(Config{Path: path, CommitInterval: time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Unix(1_700_000_000, 0)
	if _, err := s.Use("alice", "direct", "pomoc", t0, 0, Ref{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w := s.Writer()
	if err := w.Flush(ctx, w.Last()); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if got, _ := fileUse(t, snapshot(t, path), "alice", "direct", "pomoc"); got != 1 {
		t.Errorf("file after Flush: alice %d; want 1", got)
	}
	if st := s.Stats(); st.Pending != 0 || st.Commits != 1 {
		t.Errorf("Stats after Flush = %+v; want nothing pending, 1 commit", st)
	}
	if err := w.Flush(ctx, w.Last()); err != nil { // nothing new: returns at once
		t.Fatalf("second Flush: %v", err)
	}
	if _, err := s.Use("bob", "direct", "pomoc", t0, 0, Ref{}); err != nil {
		t.Fatal(err)
	}
	short, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancelShort()
	if err := w.Wait(short, w.Last()); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Wait for a use without Flush = %v; want the deadline (Wait does not hurry the writer)", err)
	}
}
