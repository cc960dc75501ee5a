package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(Config{Path: path, CommitInterval: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestUseCooldownAndRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "bot.db")
	t0 := time.Unix(1_700_000_000, 0)
	s := open(t, path)
	steps := []struct {
		at          time.Duration
		wantAllowed bool
		wantCount   int64
	}{
		{0, true, 1},
		{10 * time.Second, false, 1},
		{30 * time.Second, true, 2},
	}
	for _, st := range steps {
		r, err := s.Use("alice", "direct", "kot", t0.Add(st.at), 30*time.Second, Ref{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Allowed != st.wantAllowed || r.Count != st.wantCount {
			t.Errorf("Use at +%v = %+v; want allowed %v, count %d", st.at, r, st.wantAllowed, st.wantCount)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, path) // a restart resets neither counts nor running cooldowns
	defer s.Close()
	r, err := s.Use("alice", "direct", "kot", t0.Add(40*time.Second), 30*time.Second, Ref{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Allowed || r.Remaining != 20*time.Second {
		t.Errorf("after restart Use = %+v; want refused with 20s left", r)
	}
	ts, err := s.Tallies("alice")
	if err != nil || len(ts) != 1 || ts[0].Count != 2 || ts[0].Command != "kot" {
		t.Errorf("Tallies = %+v, %v; want kot ×2", ts, err)
	}
	if n, _ := s.ChatCount("direct", "kot"); n != 2 {
		t.Errorf("ChatCount = %d; want 2", n)
	}
	if ts, _ := s.Tallies("bob"); len(ts) != 0 {
		t.Errorf("bob's tallies = %+v; want none", ts)
	}
}

func TestFileModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := open(t, filepath.Join(dir, "bot.db"))
	defer s.Close()
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "bot.db"): 0o600} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("mode of %s = %v; want %v", path, got, want)
		}
	}
}

func TestSecretIsStable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	calls := 0
	gen := func() ([]byte, error) { calls++; return []byte{byte(calls)}, nil }
	a, _ := s.Secret("k", gen)
	s.Close()
	s = open(t, path)
	defer s.Close()
	b, _ := s.Secret("k", gen)
	if calls != 1 || string(a) != string(b) {
		t.Errorf("secret changed across restart (%v → %v, %d generations)", a, b, calls)
	}
}
