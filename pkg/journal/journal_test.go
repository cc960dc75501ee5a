package journal

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/store"
)

// open opens the state file at path with its journal; the store closes
// with the test unless the caller closes it first.
func open(t *testing.T, path string, cfg Config) (*store.Store, *Journal, Left) {
	t.Helper()
	s, err := store.Open(store.Config{Path: path, CommitInterval: time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	j, left, err := Open(s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, j, left
}

// reopen commits and closes s, then opens the file again: what a next
// process would find.
func reopen(t *testing.T, s *store.Store, path string, cfg Config) (*store.Store, *Journal, Left) {
	t.Helper()
	if err := s.WaitCommitted(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return open(t, path, cfg)
}

var on = Config{MaxFrames: 100, MaxBytes: 1 << 20, MaxSeen: 3}

func TestLeftFramesComeBackInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, j, left := open(t, path, on)
	if len(left.Frames) != 0 || len(left.Seen) != 0 {
		t.Fatalf("a new file left %+v", left)
	}
	at := time.Unix(1700000000, 123)
	var ids []uint64
	for i := range 4 {
		ids = append(ids, j.Add(Entry{Raw: []byte(fmt.Sprintf("frame %d", i)), ReadAt: at.Add(time.Duration(i)), Synthetic: i == 2, Line: i == 3, Seen: Seen{Sender: fmt.Sprintf("s%d", i), Timestamp: int64(i)}}))
	}
	j.Add(Entry{Raw: []byte("no key"), ReadAt: at})
	j.Finish(ids[1])
	if st := j.Stats(); st.Pending != 4 || st.Bytes != int64(len("frame 0")*3+len("no key")) {
		t.Errorf("stats %+v; want 4 pending", st)
	}
	s, j, left = reopen(t, s, path, on)
	want := []Entry{
		{ID: ids[0], ReadAt: at, Seen: Seen{"s0", 0}, Raw: []byte("frame 0")},
		{ID: ids[2], ReadAt: at.Add(2), Synthetic: true, Seen: Seen{"s2", 2}, Raw: []byte("frame 2")},
		{ID: ids[3], ReadAt: at.Add(3), Line: true, Seen: Seen{"s3", 3}, Raw: []byte("frame 3")},
		{ID: ids[3] + 1, ReadAt: at, Raw: []byte("no key")},
	}
	if len(left.Frames) != len(want) {
		t.Fatalf("left %d frames; want %d", len(left.Frames), len(want))
	}
	for i, e := range left.Frames {
		w := want[i]
		if e.ID != w.ID || !e.ReadAt.Equal(w.ReadAt) || e.Synthetic != w.Synthetic || e.Line != w.Line || e.Seen != w.Seen || string(e.Raw) != string(w.Raw) {
			t.Errorf("frame %d = %+v; want %+v", i, e, w)
		}
	}
	if len(left.Seen) != 1 || left.Seen[0].Seen != (Seen{"s1", 1}) {
		t.Errorf("seen %+v; want the one done frame's", left.Seen)
	}
	if st := j.Stats(); st.Pending != 4 {
		t.Errorf("reopened: %d pending; want 4", st.Pending)
	}
	// A replayed frame done now writes its Seen as a new frame would; new
	// ids continue after the left ones.
	j.Finish(ids[2])
	if id := j.Add(Entry{Raw: []byte("new"), ReadAt: at}); id <= ids[3]+1 {
		t.Errorf("new id %d after left ids up to %d", id, ids[3]+1)
	}
	_, _, left = reopen(t, s, path, on)
	if len(left.Seen) != 2 || left.Seen[1].Seen != (Seen{"s2", 2}) {
		t.Errorf("seen %+v; want s1's and the replayed s2's", left.Seen)
	}
}

// The Seen records are bounded: past MaxSeen the oldest go, in the same
// commit that adds the new one.
func TestSeenBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, j, _ := open(t, path, on)
	for i := range 5 {
		id := j.Add(Entry{Raw: []byte("f"), ReadAt: time.Now(), Seen: Seen{Sender: "s", Timestamp: int64(i)}})
		j.Finish(id)
		time.Sleep(time.Millisecond) // distinct done times
	}
	s, j, left := reopen(t, s, path, on)
	if len(left.Seen) != 3 {
		t.Fatalf("%d seen records; want MaxSeen 3", len(left.Seen))
	}
	for i, d := range left.Seen {
		if d.Timestamp != int64(i+2) {
			t.Errorf("seen %d = %+v; want timestamp %d (the newest 3, oldest first)", i, d, i+2)
		}
	}
	// Reopened with records already at the bound, one more still prunes one.
	j.Finish(j.Add(Entry{Raw: []byte("f"), ReadAt: time.Now(), Seen: Seen{Sender: "s", Timestamp: 9}}))
	_, _, left = reopen(t, s, path, on)
	if len(left.Seen) != 3 || left.Seen[2].Timestamp != 9 || left.Seen[0].Timestamp != 3 {
		t.Errorf("seen %+v; want timestamps 3, 4, 9", left.Seen)
	}
}

// A full journal (frames or bytes) is a counted drop of journaling: Add
// returns 0 at once and the frame runs unjournaled. Off, nothing is counted.
func TestFullIsCountedNotBlocking(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		adds     int
		wantIDs  int
		wantFull int64
	}{
		{"frames", Config{MaxFrames: 2, MaxBytes: 1 << 20}, 5, 2, 3},
		{"bytes", Config{MaxFrames: 100, MaxBytes: 25}, 5, 2, 3}, // 10-byte frames
		{"off", Config{}, 5, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, j, _ := open(t, filepath.Join(t.TempDir(), "state.db"), tt.cfg)
			ids := 0
			for range tt.adds {
				if j.Add(Entry{Raw: []byte("0123456789"), ReadAt: time.Now()}) != 0 {
					ids++
				}
			}
			if st := j.Stats(); ids != tt.wantIDs || st.Full != tt.wantFull || st.Pending != tt.wantIDs {
				t.Errorf("%d journaled, stats %+v; want %d journaled, %d full", ids, st, tt.wantIDs, tt.wantFull)
			}
		})
	}
	// Finish makes room again.
	_, j, _ := open(t, filepath.Join(t.TempDir(), "state.db"), Config{MaxFrames: 1, MaxBytes: 1 << 20})
	id := j.Add(Entry{Raw: []byte("a"), ReadAt: time.Now()})
	if j.Add(Entry{Raw: []byte("b"), ReadAt: time.Now()}) != 0 {
		t.Fatal("a second frame fit a journal of 1")
	}
	j.Finish(id)
	if j.Add(Entry{Raw: []byte("c"), ReadAt: time.Now()}) == 0 {
		t.Error("no room after Finish")
	}
}

// A left frame that is not answered (too old, or refused at intake on
// replay) leaves the journal, is counted, and writes no Seen record.
func TestDroppedLeftFramesLeave(t *testing.T) {
	for _, tt := range []struct {
		name string
		drop func(j *Journal, id uint64)
		stat func(Stats) int64
	}{
		{"too old", (*Journal).DropOld, func(s Stats) int64 { return s.TooOld }},
		{"refused at intake", (*Journal).Refused, func(s Stats) int64 { return s.Refused }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.db")
			s, j, _ := open(t, path, on)
			j.Add(Entry{Raw: []byte("a"), ReadAt: time.Now(), Seen: Seen{Sender: "s", Timestamp: 1}})
			j.Add(Entry{Raw: []byte("b"), ReadAt: time.Now(), Seen: Seen{Sender: "s", Timestamp: 2}})
			s, j, left := reopen(t, s, path, on)
			tt.drop(j, left.Frames[0].ID)
			tt.drop(j, left.Frames[0].ID) // twice: counted and forgotten once
			if st := j.Stats(); tt.stat(st) != 1 || st.Pending != 1 || st.Bytes != 1 {
				t.Errorf("stats %+v; want 1 dropped, 1 pending of 1 byte", st)
			}
			_, _, left = reopen(t, s, path, on)
			if len(left.Frames) != 1 || string(left.Frames[0].Raw) != "b" || len(left.Seen) != 0 {
				t.Errorf("left %+v; want only frame b and no seen record", left)
			}
		})
	}
}

// A frame whose sender is too long for a key (40 KiB, over bbolt's 32 KiB)
// is journaled and, once done, leaves the journal like any other: it gets
// no Seen record, which bbolt could not take, and the frames done around it
// keep theirs.
func TestDoneOfOversizedSenderLeaves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, j, _ := open(t, path, on)
	at := time.Unix(1700000000, 0)
	big := strings.Repeat("u", 40<<10)
	a := j.Add(Entry{Raw: []byte("frame a"), ReadAt: at, Seen: Seen{Sender: "a", Timestamp: 1}})
	b := j.Add(Entry{Raw: []byte("frame big"), ReadAt: at, Seen: Seen{Sender: big, Timestamp: 2}})
	c := j.Add(Entry{Raw: []byte("frame c"), ReadAt: at, Seen: Seen{Sender: "c", Timestamp: 3}})
	for _, id := range []uint64{a, b, c} {
		j.Finish(id)
	}
	if err := s.WaitCommitted(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Rejected != 0 {
		t.Errorf("state writer rejected %d records; want none", st.Rejected)
	}
	_, _, left := reopen(t, s, path, on)
	if len(left.Frames) != 0 {
		t.Errorf("left %d frames; want none: every one is done", len(left.Frames))
	}
	if len(left.Seen) != 2 || left.Seen[0].Seen != (Seen{"a", 1}) || left.Seen[1].Seen != (Seen{"c", 3}) {
		t.Errorf("seen %+v; want a's and c's", left.Seen)
	}
}
