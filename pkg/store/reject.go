package store

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// A record bbolt cannot take (a key over bolt.MaxKeySize, an empty key, a
// value over bolt.MaxValueSize) would fail its batch's transaction at every
// retry, and with it every record queued behind it. The writer drops such a
// record alone, counts it (WriterStats.Rejected), logs it once with its kind
// and sizes, never its content, and commits the rest of the batch. Errors of
// the transaction's own commit (the write and fsync: a full disk, an I/O
// error) are not the record's: the whole batch stays queued and is retried,
// as before.

// Checker is a Record that can tell, before its batch's transaction starts,
// that bbolt would refuse it; the writer then drops it without a transaction
// to roll back. Records that are no Checker are caught inside the
// transaction instead (recordFault), at the cost of one rollback.
type Checker interface {
	// Check returns nil, or an error (a *RecordError: CheckPut) saying why
	// bbolt would refuse the record.
	Check() error
}

// RecordError says why bbolt refuses a record: its kind, the sizes of the
// refused key and value, and bbolt's reason. It holds no content.
type RecordError struct {
	Kind       string // what the record is: "use", …
	KeyBytes   int
	ValueBytes int
	Err        error // berrors.ErrKeyRequired, ErrKeyTooLarge or ErrValueTooLarge
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("%s record: key of %d bytes, value of %d bytes: %v", e.Kind, e.KeyBytes, e.ValueBytes, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// CheckPut says whether bbolt takes a Put of key with a value of valueBytes
// bytes: nil, or a *RecordError for a record of kind.
func CheckPut(kind string, key []byte, valueBytes int) error {
	var err error
	switch {
	case len(key) == 0:
		err = berrors.ErrKeyRequired
	case len(key) > bolt.MaxKeySize:
		err = berrors.ErrKeyTooLarge
	case int64(valueBytes) > bolt.MaxValueSize:
		err = berrors.ErrValueTooLarge
	default:
		return nil
	}
	return &RecordError{Kind: kind, KeyBytes: len(key), ValueBytes: valueBytes, Err: err}
}

// recordFaults are bbolt's errors that a Put or a bucket call returns for
// what it was given, before it changes anything and without any I/O.
var recordFaults = []error{
	berrors.ErrKeyRequired, berrors.ErrKeyTooLarge, berrors.ErrValueTooLarge,
	berrors.ErrIncompatibleValue, berrors.ErrBucketNameRequired,
}

// recordFault returns the reason, from a fixed list, if err (returned by a
// record's Commit) is the record's own fault; "" if it may be anything else.
// The reason is the sentinel's text, never err's, which could quote a key.
func recordFault(err error) string {
	var re *RecordError
	if errors.As(err, &re) && re.Err != nil {
		err = re.Err
	}
	for _, f := range recordFaults {
		if errors.Is(err, f) {
			return f.Error()
		}
	}
	return ""
}

// rejected is a record dropped from its batch, and why.
type rejected struct {
	r      Record
	reason string
}

// screen splits batch into the records to commit and those a Checker
// refuses.
func screen(batch []Record) (good []Record, bad []rejected) {
	good = batch[:0:0]
	for _, r := range batch {
		if c, ok := r.(Checker); ok {
			if err := c.Check(); err != nil {
				bad = append(bad, rejected{r: r, reason: cmp.Or(recordFault(err), "refused by its check")})
				continue
			}
		}
		good = append(good, r)
	}
	return good, bad
}

// update commits batch in one transaction. A record whose Commit fails for
// a fault of its own is taken out, the transaction rolled back and run
// again without it; the records returned are those the transaction holds
// (on disk if err is nil, to be retried if not).
func (w *Writer) update(batch []Record) (kept []Record, bad []rejected, err error) {
	for len(batch) > 0 {
		at, reason := -1, ""
		err = w.db.Update(func(tx *bolt.Tx) error {
			for i, r := range batch {
				if err := r.Commit(tx); err != nil {
					if reason = recordFault(err); reason != "" {
						at = i
					}
					return err
				}
			}
			return nil
		})
		if at < 0 {
			return batch, bad, err
		}
		bad = append(bad, rejected{r: batch[at], reason: reason})
		batch = slices.Delete(batch, at, at+1)
	}
	return batch, bad, nil
}

// reject counts and logs the records dropped from a batch; w.mu is held.
func (w *Writer) reject(bad []rejected) {
	w.stats.Rejected += uint64(len(bad))
	if w.log == nil {
		return
	}
	for _, b := range bad {
		args := []any{"reason", b.reason}
		var re *RecordError
		if c, ok := b.r.(Checker); ok && errors.As(c.Check(), &re) {
			args = append(args, "kind", re.Kind, "key_bytes", re.KeyBytes, "value_bytes", re.ValueBytes)
		} else {
			args = append(args, "kind", fmt.Sprintf("%T", b.r))
		}
		w.log.Error("state record cannot be written: dropped alone, the rest of its batch is committed", args...)
	}
}
