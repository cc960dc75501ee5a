package store

import (
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// BenchmarkValidate measures what Open's validation costs on a state file
// of the size the bot can leave: 5000 journal entries (JOURNAL_MAX_FRAMES)
// of a typical frame, 4096 seen records (the duplicate filter), 2000
// senders' tallies; and the same with the journal at JOURNAL_MAX_BYTES
// (64 MiB). The file is in the page cache, as at a restart.
//
//	go test -run '^$' -bench Validate -benchtime 20x -count 3 ./pkg/store
func BenchmarkValidate(b *testing.B) {
	for _, bc := range []struct {
		name  string
		shape fileShape
	}{
		{"typical", fileShape{senders: 2000, journal: 5000, frameBytes: 900, seen: 4096}},
		{"journal_full", fileShape{senders: 2000, journal: 5000, frameBytes: 64 << 20 / 5000, seen: 4096}},
	} {
		path := filepath.Join(b.TempDir(), "bot.db")
		writeRealistic(b, path, bc.shape)
		db, err := bolt.Open(path, 0o600, nil)
		if err != nil {
			b.Fatal(err)
		}
		view := func(fn func(tx *bolt.Tx) error) {
			if err := db.View(fn); err != nil {
				b.Fatal(err)
			}
		}
		view(func(tx *bolt.Tx) error { b.Logf("%s: %d MiB", bc.name, tx.Size()>>20); return nil })
		b.Run(bc.name+"/walk", func(b *testing.B) {
			for b.Loop() {
				view(func(tx *bolt.Tx) error { walk(tx); return nil })
			}
		})
		b.Run(bc.name+"/check", func(b *testing.B) {
			for b.Loop() {
				view(check)
			}
		})
		db.Close()
		b.Run(bc.name+"/open_bbolt_only", func(b *testing.B) { // the open as before: no walk, no check
			for b.Loop() {
				db, err := bolt.Open(path, 0o600, nil)
				if err != nil {
					b.Fatal(err)
				}
				if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(bucketUses); return err }); err != nil {
					b.Fatal(err)
				}
				db.Close()
			}
		})
		b.Run(bc.name+"/open", func(b *testing.B) {
			for b.Loop() {
				s, err := Open(Config{Path: path}, nil)
				if err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
	}
}
