package store

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A record unused for ForgetAfter is forgotten by Prune, in memory at once
// and in the file with the next commit; a record used within it stays, and
// the forgotten sender starts afresh (no cooldown, a count of 1).
func TestPruneForgetsUnusedRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	const forget = 100 * time.Hour
	s, err := Open(Config{Path: path, CommitInterval: time.Millisecond, ForgetAfter: forget}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now().Add(-forget) // recent enough for Open, old enough for Prune below
	for _, u := range []struct {
		sender, command string
		at              time.Duration
	}{{"alice", "kot", 0}, {"alice", "pomoc", 2 * time.Hour}, {"bob", "kot", 0}, {"carol", "ja", 10 * time.Hour}} {
		if _, err := s.Use(u.sender, "direct", u.command, t0.Add(u.at), time.Hour, Ref{Timestamp: 1}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.Prune(t0.Add(forget + time.Hour)) // cutoff t0 + 1h
	if err != nil || n != 2 {
		t.Fatalf("Prune = %d, %v; want 2 (alice's kot, bob's kot)", n, err)
	}
	for sender, want := range map[string]int{"alice": 1, "bob": 0, "carol": 1} {
		if ts, _ := s.Tallies(sender); len(ts) != want {
			t.Errorf("%s's tallies after the prune: %+v; want %d", sender, ts, want)
		}
	}
	if r, _ := s.Use("bob", "direct", "kot", t0.Add(forget+time.Hour), 1000*time.Hour, Ref{}); !r.Allowed || r.Count != 1 {
		t.Errorf("bob's kot after he was forgotten: %+v; want allowed, count 1", r)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path) // ForgetAfter 0: the file as it is
	defer s.Close()
	for sender, want := range map[string]int{"alice": 1, "bob": 1, "carol": 1} {
		if ts, _ := s.Tallies(sender); len(ts) != want {
			t.Errorf("%s's tallies in the file: %+v; want %d", sender, ts, want)
		}
	}
	if n, _ := s.Prune(time.Now().Add(10000 * time.Hour)); n != 0 {
		t.Errorf("Prune with ForgetAfter 0 forgot %d; want none", n)
	}
}

// Open prunes the records unused for ForgetAfter before it reads the file,
// and compacts a file left mostly free: 20,000 one-off senders of 91 days
// ago leave no record and a small file; a sender of today stays.
func TestOpenPrunesAndCompacts(t *testing.T) {
	const senders = 20_000
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	old := time.Now().Add(-91 * 24 * time.Hour)
	for i := range senders {
		if _, err := s.Use(fmt.Sprintf("+4860%07d", i), "direct", "pomoc", old, 10*time.Second, Ref{Timestamp: int64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Use("today", "direct", "kot", time.Now(), 30*time.Second, Ref{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := fileSize(t, path)
	s, err := Open(Config{Path: path, CommitInterval: time.Millisecond, ForgetAfter: 90 * 24 * time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := fileSize(t, path)
	t.Logf("state file with %d one-off senders: %d bytes; after Open with STATE_FORGET_AFTER=2160h: %d bytes", senders, before, after)
	if ts, _ := s.Tallies("+48600000001"); len(ts) != 0 {
		t.Errorf("a sender of 91 days ago after Open: %+v; want forgotten", ts)
	}
	if ts, _ := s.Tallies("today"); len(ts) != 1 {
		t.Errorf("today's sender after Open: %+v; want kept", ts)
	}
	if len(s.uses) != 1 {
		t.Errorf("%d senders in memory; want 1", len(s.uses))
	}
	if after*4 > before {
		t.Errorf("file %d bytes after pruning, %d before; want it compacted to under a quarter", after, before)
	}
	if _, err := s.Use("today", "direct", "pomoc", time.Now(), 0, Ref{}); err != nil { // the compacted file takes writes
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	if ts, _ := s.Tallies("today"); len(ts) != 2 {
		t.Errorf("today's sender after a reopen: %+v; want kot and pomoc", ts)
	}
	if _, err := os.Stat(path + ".compact"); !os.IsNotExist(err) {
		t.Errorf("the compaction's file is left: %v", err)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
