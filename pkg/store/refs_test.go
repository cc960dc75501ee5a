package store

import (
	"path/filepath"
	"testing"
	"time"
)

// A use remembers its message (Ref), in memory and across a restart: the
// same message replayed meets its own use and is allowed Again, without a
// second use recorded; anything else (the same timestamp not replayed, a
// replay of another message, a use without a timestamp) meets the cooldown
// as before.
func TestReplayMeetsItsOwnUse(t *testing.T) {
	const cooldown = 30 * time.Second
	t0 := time.Unix(1_700_000_000, 0)
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	if r, err := s.Use("alice", "direct", "kot", t0, cooldown, Ref{Timestamp: 111}); err != nil || !r.Allowed || r.Again {
		t.Fatalf("first use = %+v, %v; want allowed, not again", r, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path) // the process died after the use was on disk
	defer s.Close()
	steps := []struct {
		name        string
		ref         Ref
		wantAllowed bool
		wantAgain   bool
	}{
		{"the same message, not replayed", Ref{Timestamp: 111}, false, false},
		{"another message replayed", Ref{Timestamp: 112, Replayed: true}, false, false},
		{"no timestamp, replayed", Ref{Replayed: true}, false, false},
		{"the same message replayed", Ref{Timestamp: 111, Replayed: true}, true, true},
		{"the same message replayed again", Ref{Timestamp: 111, Replayed: true}, true, true},
	}
	for _, st := range steps {
		r, err := s.Use("alice", "direct", "kot", t0.Add(time.Second), cooldown, st.ref)
		if err != nil {
			t.Fatal(err)
		}
		if r.Allowed != st.wantAllowed || r.Again != st.wantAgain || r.Count != 1 {
			t.Errorf("%s: Use = %+v; want allowed %v, again %v, count 1", st.name, r, st.wantAllowed, st.wantAgain)
		}
	}
	waitCommitted(t, s)
	if count, chat := fileUse(t, snapshot(t, path), "alice", "direct", "kot"); count != 1 || chat != 1 {
		t.Errorf("on disk: alice's count %d, the chat's %d; want 1 and 1 (no use recorded again)", count, chat)
	}
	// Past the cooldown a new message is a new use; its timestamp replaces the old one.
	if r, _ := s.Use("alice", "direct", "kot", t0.Add(time.Minute), cooldown, Ref{Timestamp: 113}); !r.Allowed || r.Again || r.Count != 2 {
		t.Errorf("next message past the cooldown = %+v; want allowed, count 2", r)
	}
	if r, _ := s.Use("alice", "direct", "kot", t0.Add(time.Minute), cooldown, Ref{Timestamp: 111, Replayed: true}); r.Allowed {
		t.Errorf("the older message replayed after a newer use = %+v; want refused", r)
	}
	// A use without a timestamp leaves none behind for a replay to match.
	if r, _ := s.Use("alice", "direct", "kot", t0.Add(2*time.Minute), cooldown, Ref{}); !r.Allowed {
		t.Fatalf("use without a timestamp = %+v; want allowed", r)
	}
	if r, _ := s.Use("alice", "direct", "kot", t0.Add(2*time.Minute), cooldown, Ref{Timestamp: 113, Replayed: true}); r.Allowed {
		t.Errorf("a replay of the message before a use without timestamp = %+v; want refused", r)
	}
}
