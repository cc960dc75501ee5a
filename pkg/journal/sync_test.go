package journal

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// diskFault is a record whose Commit fails, as a full disk fails a commit,
// until healed: the writer keeps its batch queued and retries it.
type diskFault struct{ healed *atomic.Bool }

func (d diskFault) Commit(*bolt.Tx) error {
	if d.healed.Load() {
		return nil
	}
	return errors.New("write state.db: no space left on device")
}

// While commits fail, Sync answers within SyncWait with ErrNotDurable, then
// at once for the frames after it (earlier ones are not on disk either);
// each is counted, and Behind says how many wait. Once a commit succeeds the
// entries are on disk, Behind is 0, and Sync waits for the disk again.
func TestSyncBoundedWhileCommitsFail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	cfg := on
	cfg.SyncWait = 20e6 // 20 ms
	s, j, _ := open(t, path, cfg)
	var healed atomic.Bool
	if _, err := s.Writer().Add(diskFault{&healed}); err != nil {
		t.Fatal(err)
	}
	var ids []uint64
	for i := range 3 {
		ids = append(ids, j.Add(Entry{Raw: []byte{byte('a' + i)}}))
		if err := j.Sync(context.Background()); !errors.Is(err, ErrNotDurable) {
			t.Fatalf("Sync %d while commits fail = %v; want ErrNotDurable", i, err)
		}
	}
	st := j.Stats()
	if st.NotDurable != 3 || st.Behind != 3 || st.BehindSince == nil {
		t.Fatalf("stats %+v; want 3 not durable, 3 behind, since a time", st)
	}
	if !s.Writer().Stats().Failing {
		t.Fatal("the writer does not say its commits fail")
	}
	healed.Store(true)
	if err := s.Writer().Wait(context.Background(), s.Writer().Last()); err != nil {
		t.Fatal(err)
	}
	if st := j.Stats(); st.Behind != 0 || st.BehindSince != nil || st.NotDurable != 3 {
		t.Errorf("stats once a commit succeeded %+v; want none behind, 3 not durable in all", st)
	}
	j.Add(Entry{Raw: []byte("d")})
	if err := j.Sync(context.Background()); err != nil {
		t.Errorf("Sync once commits succeed = %v; want nil", err)
	}
	_, _, left := reopen(t, s, path, cfg)
	if len(left.Frames) != 4 || left.Frames[0].ID != ids[0] {
		t.Errorf("%d entries on disk after the fault; want the 4 pending, the ones taken in memory first", len(left.Frames))
	}
}

// An entry the state file cannot take (a value over bbolt's limit, claimed
// here by a record check) is not queued: the frame runs unjournaled,
// counted; so is one added as the file closes.
func TestUnwritableEntryCounted(t *testing.T) {
	if err := (put{value: make([]byte, 16)}).Check(); err != nil {
		t.Fatalf("Check of a small entry = %v", err)
	}
	s, j, _ := open(t, filepath.Join(t.TempDir(), "state.db"), on)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if id := j.Add(Entry{Raw: []byte("late")}); id != 0 {
		t.Errorf("Add after Close = %d; want 0", id)
	}
	if st := j.Stats(); st.Unwritable != 1 || st.Pending != 0 {
		t.Errorf("stats %+v; want 1 unwritable, none pending", st)
	}
}
