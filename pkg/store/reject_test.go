package store

import (
	"bytes"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// raw is a record of another kind (as a journal entry is) that puts key
// and value in bucket "raw"; it is no Checker, so bbolt itself refuses it
// inside the transaction. With first, it puts that key first: a record
// refused halfway, whose first Put must not reach the file.
type raw struct {
	first      []byte
	key, value []byte
}

func (r raw) Commit(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists([]byte("raw"))
	if err != nil {
		return err
	}
	if r.first != nil {
		if err := b.Put(r.first, []byte{1}); err != nil {
			return err
		}
	}
	return b.Put(r.key, r.value)
}

// claims is a Checker that says it puts a value of n bytes without holding
// them (a value over bolt.MaxValueSize, 2 GiB, cannot be allocated in a
// test). The writer must drop it on its Check, never calling Commit.
type claims struct {
	n         int
	committed *atomic.Bool
}

func (c claims) Check() error { return CheckPut("claims", []byte("k"), c.n) }

func (c claims) Commit(*bolt.Tx) error {
	c.committed.Store(true)
	return berrors.ErrValueTooLarge
}

// A record bbolt cannot take fails alone: the good records of its batch,
// before and after it, are committed in that batch's one transaction and
// are in the file after reopening; the bad one is counted and logged once
// with its kind and size, never its content.
func TestWriterRejectsRecordAlone(t *testing.T) {
	bigSender := strings.Repeat("Q7", 20<<10) // 40 KiB: over bolt.MaxKeySize
	var committed atomic.Bool
	tests := []struct {
		name     string
		bad      func(*Store) error // adds the bad records
		rejected uint64
		wantLog  []string // each in the log
	}{
		{"oversized key (a use from a 40 KiB sender)", func(s *Store) error {
			_, err := s.Use(bigSender, "direct", "pomoc", time.Unix(1_700_000_000, 0), 0, Ref{})
			return err
		}, 1, []string{"reason=\"key too large\"", "kind=use", "key_bytes=40966", "value_bytes=16"}},
		{"oversized key, no Checker", func(s *Store) error {
			_, err := s.Writer().Add(raw{key: []byte(bigSender), value: []byte{1}})
			return err
		}, 1, []string{"reason=\"key too large\"", "kind=store.raw"}},
		{"empty key", func(s *Store) error {
			_, err := s.Writer().Add(raw{key: nil, value: []byte{1}})
			return err
		}, 1, []string{"reason=\"key required\"", "kind=store.raw"}},
		{"refused after a first Put", func(s *Store) error {
			_, err := s.Writer().Add(raw{first: []byte("half"), key: nil, value: []byte{1}})
			return err
		}, 1, []string{"reason=\"key required\""}},
		{"oversized value", func(s *Store) error {
			_, err := s.Writer().Add(claims{n: bolt.MaxValueSize + 1, committed: &committed})
			return err
		}, 1, []string{"reason=\"value too large\"", "kind=claims", "key_bytes=1", "value_bytes=2147483647"}},
		{"three bad ones among the good", func(s *Store) error {
			w := s.Writer()
			for _, r := range []Record{raw{key: nil}, raw{key: []byte(bigSender)}, claims{n: bolt.MaxValueSize + 1, committed: &committed}} {
				if _, err := w.Add(r); err != nil {
					return err
				}
				if _, err := w.Add(raw{key: []byte("between"), value: []byte{2}}); err != nil {
					return err
				}
			}
			return nil
		}, 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			path := filepath.Join(t.TempDir(), "bot.db")
			s, err := Open(Config{Path: path, CommitInterval: time.Hour}, slog.New(slog.NewTextHandler(&logs, nil)))
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Unix(1_700_000_000, 0)
			if _, err := s.Use("alice", "direct", "pomoc", t0, 0, Ref{}); err != nil {
				t.Fatal(err)
			}
			if err := tt.bad(s); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Use("bob", "direct", "pomoc", t0, 0, Ref{}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Writer().Add(raw{key: []byte("after"), value: []byte{3}}); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil { // the one commit of the whole batch
				t.Fatalf("Close = %v; want the good records committed", err)
			}
			st := s.Stats()
			if st.Rejected != tt.rejected || st.Failures != 0 || st.Commits != 1 || st.Failing || st.Pending != 0 {
				t.Errorf("Stats = %+v; want %d rejected, no failure, 1 commit, nothing pending", st, tt.rejected)
			}
			if committed.Load() {
				t.Error("the writer committed a record its Check refuses")
			}
			if n := strings.Count(logs.String(), "state record cannot be written"); n != int(tt.rejected) {
				t.Errorf("%d log lines for rejected records; want %d:\n%s", n, tt.rejected, logs.String())
			}
			for _, want := range tt.wantLog {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("log lacks %s:\n%s", want, logs.String())
				}
			}
			if strings.Contains(logs.String(), "Q7Q7") {
				t.Error("the log quotes the refused key")
			}
			checkGoodOnDisk(t, path, bigSender)
		})
	}
}

// checkGoodOnDisk reopens the file: alice's and bob's uses and the raw
// records "after" (and "between", if put) are there; nothing of the bad ones.
func checkGoodOnDisk(t *testing.T, path, bigSender string) {
	t.Helper()
	s := open(t, path)
	defer s.Close()
	for _, who := range []string{"alice", "bob"} {
		if ts, _ := s.Tallies(who); len(ts) != 1 || ts[0].Count != 1 {
			t.Errorf("%s's tallies after reopening = %+v; want pomoc ×1", who, ts)
		}
	}
	if ts, _ := s.Tallies(bigSender); len(ts) != 0 {
		t.Errorf("the 40 KiB sender's tallies after reopening = %+v; want none", ts)
	}
	err := s.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("raw"))
		if b == nil || !bytes.Equal(b.Get([]byte("after")), []byte{3}) {
			return errors.New("the good record after the bad one is not in the file")
		}
		if b.Get([]byte("half")) != nil {
			return errors.New("the first Put of a refused record is in the file")
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
}
