package store

import (
	"errors"
	"fmt"
	"hash/crc32"
	"os"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// validate reads the whole file once, within guard, so that nothing read
// later can fault or panic: its size against the size its header gives,
// then every bucket's every key and value (walk), then bbolt's own
// consistency check (check), and it creates the store's buckets. Every
// failure is a damaged file.
func validate(db *bolt.DB, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("open state %s: %w", path, err)
	}
	err = guard(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if tx.Size() > fi.Size() {
				return fmt.Errorf("cut short: %d bytes where its header says %d", fi.Size(), tx.Size())
			}
			walk(tx)
			return check(tx)
		})
	})
	if err != nil {
		return &damagedError{path, err.Error()}
	}
	err = guard(func() error {
		return db.Update(func(tx *bolt.Tx) error {
			for _, b := range [][]byte{bucketUses, bucketChats, bucketRefs} {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return fmt.Errorf("bucket %s: %w", b, err)
				}
			}
			return nil
		})
	})
	if errors.Is(err, berrors.ErrIncompatibleValue) || errors.As(err, new(panicked)) {
		return &damagedError{path, err.Error()}
	}
	if err != nil {
		return fmt.Errorf("open state %s: %w", path, err)
	}
	return nil
}

// walk reads every key and value of every bucket, nested ones too, so that
// every page the buckets reach has been read here, under guard: bbolt's
// check runs on a goroutine of its own, where a fault could not be caught.
func walk(tx *bolt.Tx) uint32 {
	var sum uint32
	_ = tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		sum = crc32.Update(sum, crc32.IEEETable, name)
		sum ^= walkBucket(b)
		return nil
	})
	return sum
}

func walkBucket(b *bolt.Bucket) uint32 {
	var sum uint32
	_ = b.ForEach(func(k, v []byte) error {
		sum = crc32.Update(sum, crc32.IEEETable, k)
		if v != nil {
			sum = crc32.Update(sum, crc32.IEEETable, v)
		} else if c := b.Bucket(k); c != nil {
			sum ^= walkBucket(c)
		}
		return nil
	})
	return sum
}

// check runs bbolt's consistency check (pages reachable, freed once, keys in
// order) and reports its first problem and how many there were.
func check(tx *bolt.Tx) error {
	var first error
	n := 0
	for err := range tx.Check() {
		if first == nil {
			first = err
		}
		n++
	}
	switch {
	case n == 1:
		return fmt.Errorf("inconsistent: %w", first)
	case n > 1:
		return fmt.Errorf("inconsistent: %w (and %d more problems)", first, n-1)
	}
	return nil
}
