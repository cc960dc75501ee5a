package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// fileShape is what writeRealistic puts in a state file.
type fileShape struct {
	senders    int // tallies: 4 commands each, and the chats' counts
	journal    int // journal entries
	frameBytes int // raw frame in each entry
	seen       int // duplicate-filter records
}

// writeRealistic writes a state file shaped as the bot leaves one: tallies,
// the sender-hash key, journal entries (the layout of docs/state.md) and seen
// records. Written with bbolt directly, as one transaction per bucket.
func writeRealistic(tb testing.TB, path string, shape fileShape) {
	tb.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Unix(1_760_000_000, 0)
	sender := func(i int) string { return fmt.Sprintf("+4850%07d", i) }
	fill := func(bucket string, n int, kv func(i int) ([]byte, []byte)) {
		err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte(bucket))
			if err != nil {
				return err
			}
			for i := range n {
				if err := b.Put(kv(i)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	cmds := []string{"pomoc", "ja", "cat", "kot"}
	fill("uses", shape.senders*len(cmds), func(i int) ([]byte, []byte) {
		return key(sender(i/len(cmds)), cmds[i%len(cmds)]), encodeUse(now, int64(i))
	})
	fill("chats", len(cmds)*2, func(i int) ([]byte, []byte) {
		return []byte(fmt.Sprintf("chat%d\x00%s", i/len(cmds), cmds[i%len(cmds)])), binary.BigEndian.AppendUint64(nil, uint64(i))
	})
	fill("meta", 1, func(int) ([]byte, []byte) { return []byte("sender-hash-key"), bytes.Repeat([]byte{7}, 32) })
	frame := make([]byte, shape.frameBytes)
	fill("journal", shape.journal, func(i int) ([]byte, []byte) {
		s := sender(i)
		v := binary.BigEndian.AppendUint64(nil, uint64(now.UnixNano()))
		v = append(v, 2)
		v = binary.BigEndian.AppendUint64(v, uint64(now.UnixMilli()+int64(i)))
		v = binary.BigEndian.AppendUint16(v, uint16(len(s)))
		v = append(v, s...)
		for j := range frame {
			frame[j] = byte('a' + rng.IntN(26))
		}
		return binary.BigEndian.AppendUint64(nil, uint64(i+1)), append(v, frame...)
	})
	fill("seen", shape.seen, func(i int) ([]byte, []byte) {
		k := binary.BigEndian.AppendUint64(nil, uint64(now.UnixNano()+int64(i)))
		k = binary.BigEndian.AppendUint64(k, uint64(now.UnixMilli()+int64(i)))
		return append(k, sender(i)...), []byte{}
	})
}

// small is a file of a few dozen pages, some of them overflow pages.
var small = fileShape{senders: 300, journal: 40, frameBytes: 900, seen: 200}

func logTo(buf *bytes.Buffer) *slog.Logger { return slog.New(slog.NewTextHandler(buf, nil)) }

// damage makes the kinds of damage issue 20 found and a few more.
var damage = []struct {
	name string
	make func(tb testing.TB, path string)
}{
	{"garbage", func(tb testing.TB, path string) {
		writeFile(tb, path, randomBytes(64<<10, 3))
	}},
	{"a few bytes", func(tb testing.TB, path string) { writeFile(tb, path, []byte("not a database\n")) }},
	{"truncated to its headers", func(tb testing.TB, path string) { writeRealistic(tb, path, small); truncate(tb, path, 2*4096) }},
	{"truncated by half", func(tb testing.TB, path string) {
		writeRealistic(tb, path, small)
		fi, _ := os.Stat(path)
		truncate(tb, path, fi.Size()/2)
	}},
	{"both headers zeroed", func(tb testing.TB, path string) { writeRealistic(tb, path, small); overwrite(tb, path, 0, 2*4096, 0) }},
}

func randomBytes(n int, seed uint64) []byte {
	rng := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(seed >> 16)})
	b := make([]byte, n)
	_, _ = rng.Read(b)
	return b
}

func writeFile(tb testing.TB, path string, b []byte) {
	tb.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		tb.Fatal(err)
	}
}

func truncate(tb testing.TB, path string, size int64) {
	tb.Helper()
	if err := os.Truncate(path, size); err != nil {
		tb.Fatal(err)
	}
}

// overwrite writes n bytes of value (or, for value < 0, random bytes) at off.
func overwrite(tb testing.TB, path string, off int64, n int, value int) {
	tb.Helper()
	b := bytes.Repeat([]byte{byte(value)}, n)
	if value < 0 {
		b = randomBytes(n, uint64(off))
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		tb.Fatal(err)
	}
}

// A damaged file is ErrDamaged with one message naming the file and both
// ways out, never a panic, and the file is left as it was.
func TestOpenDamagedFile(t *testing.T) {
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			d.make(t, path)
			before, _ := os.ReadFile(path)
			s, err := Open(Config{Path: path}, nil)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded; want ErrDamaged")
			}
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("Open = %v; want ErrDamaged", err)
			}
			msg := err.Error()
			for _, want := range []string{path + " is damaged (", "docs/operations.md#backups", "mv " + path, "STATE_DAMAGED=aside"} {
				if !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
					t.Errorf("error %q; want one line with %q", msg, want)
				}
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("Open changed the damaged file; want it left for a restore")
			}
		})
	}
}

// With MoveDamagedAside the damaged file moves to <name>.damaged-<time>,
// unchanged, a warning says so, and the store starts fresh.
func TestOpenMovesDamagedAside(t *testing.T) {
	for _, d := range damage {
		t.Run(d.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "bot.db")
			d.make(t, path)
			before, _ := os.ReadFile(path)
			var logs bytes.Buffer
			s, err := Open(Config{Path: path, Damaged: DamagedAside}, logTo(&logs))
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer s.Close()
			if ts, _ := s.Tallies("+48500000001"); len(ts) != 0 {
				t.Errorf("tallies %v; want a fresh store", ts)
			}
			aside, _ := filepath.Glob(path + ".damaged-*")
			if len(aside) != 1 {
				t.Fatalf("files moved aside: %v; want one", aside)
			}
			if got, _ := os.ReadFile(aside[0]); !bytes.Equal(got, before) {
				t.Error("the file moved aside differs from the damaged one")
			}
			if !strings.Contains(logs.String(), "level=WARN msg=\"state file damaged: moved aside") || !strings.Contains(logs.String(), aside[0]) {
				t.Errorf("log %q; want a warning naming %s", logs.String(), aside[0])
			}
		})
	}
}

// Every page of a realistic file overwritten in turn, with zeros or with
// random bytes: Open either works (the page was free) or says ErrDamaged;
// it never panics nor faults, and never reports another kind of error.
func TestOpenSurvivesAnyPageDamaged(t *testing.T) {
	clean := filepath.Join(t.TempDir(), "clean.db")
	writeRealistic(t, clean, small)
	orig, _ := os.ReadFile(clean)
	pages := len(orig) / 4096
	damaged := 0
	for page := 2; page < pages; page++ {
		for _, value := range []int{0, -1} {
			path := filepath.Join(t.TempDir(), "bot.db")
			writeFile(t, path, orig)
			overwrite(t, path, int64(page)*4096, 4096, value)
			s, err := Open(Config{Path: path}, nil)
			switch {
			case err == nil:
				s.Close()
			case errors.Is(err, ErrDamaged):
				damaged++
			default:
				t.Errorf("page %d overwritten (%d): Open = %v; want success or ErrDamaged", page, value, err)
			}
		}
	}
	if damaged == 0 {
		t.Errorf("no overwritten page of %d was found damaged; the check sees nothing", pages)
	}
	t.Logf("%d pages, %d of %d overwrites found damaged", pages, damaged, 2*(pages-2))
}

// A missing and an empty file start fresh, each with an info line.
func TestOpenFresh(t *testing.T) {
	for _, tt := range []struct {
		name, want string
		make       func(path string)
	}{
		{"missing", "no state file yet: state starts fresh", func(string) {}},
		{"0 bytes", "state file is empty: state starts fresh", func(path string) { writeFile(t, path, nil) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			tt.make(path)
			var logs bytes.Buffer
			s, err := Open(Config{Path: path}, logTo(&logs))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if !strings.Contains(logs.String(), "level=INFO msg=\""+tt.want+"\" path="+path) {
				t.Errorf("log %q; want %q", logs.String(), tt.want)
			}
			if r, err := s.Use("a", "direct", "kot", time.Now(), time.Minute, Ref{}); err != nil || !r.Allowed {
				t.Errorf("Use on the fresh store = %+v, %v", r, err)
			}
		})
	}
}

// A file of mode 0666 (or 0644) ends at 0600, with a warning.
func TestOpenTightensMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o666, 0o644, 0o700} {
		t.Run(fmt.Sprintf("%04o", mode), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bot.db")
			writeRealistic(t, path, small)
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			s, err := Open(Config{Path: path}, logTo(&logs))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode = %04o; want 0600", fi.Mode().Perm())
			}
			want := fmt.Sprintf("level=WARN msg=\"state file mode was looser than 0600: tightened to 0600\" path=%s was=%04o", path, mode)
			if !strings.Contains(logs.String(), want) {
				t.Errorf("log %q; want %q", logs.String(), want)
			}
		})
	}
}

// A second Open of a file held is ErrHeld, naming the holder's pid (here
// this process's own: the lock is per open file, so it conflicts in one
// process too), at once rather than after bbolt's wait of old (5 s).
func TestOpenHeldNamesHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bot.db")
	s := open(t, path)
	defer s.Close()
	start := time.Now()
	s2, err := Open(Config{Path: path}, nil)
	took := time.Since(start)
	if err == nil {
		s2.Close()
		t.Fatal("second Open succeeded; want ErrHeld")
	}
	if !errors.Is(err, ErrHeld) {
		t.Fatalf("second Open = %v; want ErrHeld", err)
	}
	if want := fmt.Sprintf("state file %s is held by another signal-bot (pid %d, ", path, os.Getpid()); !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q; want it to start %q", err, want)
	}
	t.Logf("refused after %v: %v", took, err)
}

func TestLockHolder(t *testing.T) {
	const dev, ino = 0xfd01, 56789 // major 0xfd, minor 1
	tests := []struct {
		name  string
		locks string
		opens bool // the candidate has the file open
		want  int
	}{
		{"device and inode match", "1: FLOCK  ADVISORY  WRITE 1234 fd:01:56789 0 EOF\n", false, 1234},
		{"another inode", "1: FLOCK  ADVISORY  WRITE 1234 fd:01:56788 0 EOF\n", true, 0},
		{"inode only, file open", "1: FLOCK  ADVISORY  WRITE 1234 00:2a:56789 0 EOF\n", true, 1234},
		{"inode only, file not open", "1: FLOCK  ADVISORY  WRITE 1234 00:2a:56789 0 EOF\n", false, 0},
		{"a POSIX lock", "1: POSIX  ADVISORY  WRITE 1234 fd:01:56789 0 EOF\n", false, 0},
		{"a waiter, then the holder", "1: -> FLOCK  ADVISORY  WRITE 99 fd:01:56789 0 EOF\n1: FLOCK  ADVISORY  WRITE 1234 fd:01:56789 0 EOF\n", false, 1234},
		{"pid 0: another namespace", "1: FLOCK  ADVISORY  WRITE 0 fd:01:56789 0 EOF\n", true, 0},
		{"garbage", "x\n\n1: FLOCK\n1: FLOCK ADVISORY WRITE 12 fd:01 0 EOF\n", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lockHolder(tt.locks, dev, ino, func(int) bool { return tt.opens }); got != tt.want {
				t.Errorf("lockHolder = %d; want %d", got, tt.want)
			}
		})
	}
}
