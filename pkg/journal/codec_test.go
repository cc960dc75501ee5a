package journal

import (
	"encoding/binary"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// Entries round-trip through the codec, attempts included; a value in the
// layout from before the attempt count (no flagAttempts) reads as 0
// attempts, and a new entry is written in that layout still.
func TestCodec(t *testing.T) {
	at := time.Unix(1700000000, 42)
	tests := []struct {
		name string
		e    Entry
	}{
		{"bare", Entry{ID: 1, ReadAt: at, Raw: []byte("frame")}},
		{"seen", Entry{ID: 2, ReadAt: at, Seen: Seen{"s", 7}, Raw: []byte("frame")}},
		{"attempts", Entry{ID: 3, ReadAt: at, Line: true, Attempts: 2, Raw: []byte("frame")}},
		{"all", Entry{ID: 4, ReadAt: at, Synthetic: true, Seen: Seen{"s", 7}, Attempts: 255, Raw: []byte("{}")}},
		{"empty raw", Entry{ID: 5, ReadAt: at, Attempts: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decode(binary.BigEndian.AppendUint64(nil, tt.e.ID), encode(tt.e))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Raw) == 0 && len(tt.e.Raw) == 0 {
				got.Raw = tt.e.Raw
			}
			if !got.ReadAt.Equal(tt.e.ReadAt) {
				t.Errorf("ReadAt = %v; want %v", got.ReadAt, tt.e.ReadAt)
			}
			got.ReadAt = tt.e.ReadAt
			if !reflect.DeepEqual(got, tt.e) {
				t.Errorf("decode(encode(e)) = %+v; want %+v", got, tt.e)
			}
		})
	}
	// The old layout: read time, flags (seen), timestamp, sender length, sender, raw.
	old := binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano()))
	old = append(old, flagSeen)
	old = binary.BigEndian.AppendUint64(old, 7)
	old = binary.BigEndian.AppendUint16(old, 1)
	old = append(old, "s"...)
	old = append(old, "frame"...)
	e, err := decode(binary.BigEndian.AppendUint64(nil, 9), old)
	if err != nil || e.Attempts != 0 || e.Seen != (Seen{"s", 7}) || string(e.Raw) != "frame" {
		t.Errorf("old layout = %+v, %v; want 0 attempts, its Seen and raw frame", e, err)
	}
	if got := encode(Entry{ReadAt: at, Seen: Seen{"s", 7}, Raw: []byte("frame")}); string(got) != string(old) {
		t.Errorf("a new entry is not written in the old layout: %x; want %x", got, old)
	}
	if _, err := decode(binary.BigEndian.AppendUint64(nil, 9), append(old[:8:8], flagAttempts)); err == nil {
		t.Error("attempts flag without the count decoded")
	}
}

// Attempt raises an entry's count on disk before its replay; once it has
// been replayed ReplayMaxAttempts times, the next start drops it as
// poison, counted, and it leaves the file.
func TestAttemptsBoundReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	cfg := on
	cfg.ReplayMaxAttempts = 2
	s, j, _ := open(t, path, cfg)
	j.Add(Entry{ReadAt: time.Now(), Raw: []byte("frame")})
	for want := uint8(1); want <= 2; want++ {
		var left Left
		s, j, left = reopen(t, s, path, cfg)
		if len(left.Frames) != 1 || left.Frames[0].Attempts != want-1 {
			t.Fatalf("start %d: left %+v; want the frame with %d attempts", want, left.Frames, want-1)
		}
		if e, ok := j.Attempt(left.Frames[0]); !ok || e.Attempts != want {
			t.Fatalf("Attempt = %+v, %v; want %d attempts, to replay", e, ok, want)
		}
	}
	s, j, left := reopen(t, s, path, cfg)
	if len(left.Frames) != 1 || left.Frames[0].Attempts != 2 {
		t.Fatalf("left %+v; want the frame with 2 attempts", left.Frames)
	}
	if _, ok := j.Attempt(left.Frames[0]); ok {
		t.Fatal("Attempt past REPLAY_MAX_ATTEMPTS says replay")
	}
	if st := j.Stats(); st.Poison != 1 || st.Pending != 0 {
		t.Errorf("stats %+v; want 1 poison, none pending", st)
	}
	if _, _, left = reopen(t, s, path, cfg); len(left.Frames) != 0 {
		t.Errorf("left %+v after the poison drop; want none", left.Frames)
	}
}
