package bot

import (
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"signal-bot/pkg/store"
)

// The bot's sends are remembered across a restart for EchoWindow, the last
// EchoSize of them, in memory and in the state file.
func TestOwnSendsAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	now := time.UnixMilli(1_765_000_000_000)
	open := func() *store.Store {
		t.Helper()
		st, err := store.Open(store.Config{Path: path, CommitInterval: time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st := open()
	o, err := LoadOwnSends(st, now)
	if err != nil {
		t.Fatal(err)
	}
	old := now.Add(-EchoWindow - time.Minute).UnixMilli()
	o.Remember(old) // sent before the window of the next start
	first := now.UnixMilli() - int64(EchoSize)
	for i := range int64(EchoSize + 10) { // the first 10 are evicted
		o.Remember(first + i)
	}
	if o.Echo(first+5, now) || !o.Echo(first+10, now) || !o.Echo(first+EchoSize+9, now) || o.Len() != EchoSize {
		t.Fatalf("in memory: echo(evicted) %v, echo(oldest kept) %v, echo(newest) %v, %d kept; want false, true, true, %d",
			o.Echo(first+5, now), o.Echo(first+10, now), o.Echo(first+EchoSize+9, now), o.Len(), EchoSize)
	}
	if o.Echo(now.UnixMilli()+100, now) {
		t.Error("a timestamp never sent is an echo")
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st = open()
	defer st.Close()
	o2, err := LoadOwnSends(st, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	later := now.Add(time.Minute)
	if o2.Len() != EchoSize || o2.Echo(old, later) || o2.Echo(first+5, later) || !o2.Echo(first+10, later) || !o2.Echo(first+EchoSize+9, later) {
		t.Errorf("after the restart: %d kept, echo(old) %v, echo(evicted) %v, echo(oldest kept) %v, echo(newest) %v; want %d, false, false, true, true",
			o2.Len(), o2.Echo(old, later), o2.Echo(first+5, later), o2.Echo(first+10, later), o2.Echo(first+EchoSize+9, later), EchoSize)
	}
	if o2.Echo(first+10, now.Add(EchoWindow+time.Hour)) {
		t.Error("a send older than EchoWindow is still an echo")
	}
}

// The start prunes the file to what it keeps in memory.
func TestOwnSendsPrunedAtStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	now := time.UnixMilli(1_765_000_000_000)
	st, err := store.Open(store.Config{Path: path, CommitInterval: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, err := LoadOwnSends(st, now)
	if err != nil {
		t.Fatal(err)
	}
	for i := range int64(5) {
		o.Remember(now.Add(-EchoWindow).UnixMilli() - 10 + i*5) // -10, -5: out at the next start; 0, 5, 10: in
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		st, err = store.Open(store.Config{Path: path, CommitInterval: time.Millisecond}, nil)
		if err != nil {
			t.Fatal(err)
		}
		o, err = LoadOwnSends(st, now)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		if o.Len() != 3 {
			t.Errorf("%d sends kept; want 3", o.Len())
		}
	}
	st, err = store.Open(store.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var keys int
	if err := st.View(func(tx *bolt.Tx) error {
		keys = tx.Bucket(bucketOwnSends).Stats().KeyN
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if keys != 3 {
		t.Errorf("%d sends in the file; want 3", keys)
	}
}
