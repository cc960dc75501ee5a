package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Record is one change the Writer makes durable: Commit writes it into the
// transaction of its batch. Records are committed in the order they were
// added, so a later record of the same key wins. A record must be a value
// that no longer changes once added.
type Record interface {
	Commit(tx *bolt.Tx) error
}

// ErrClosed is the error of changes made after Close.
var ErrClosed = errors.New("state file closed")

// Writer is the state file's one writer goroutine. Changes are added to a
// queue without waiting for the disk (Add), and the writer commits what is
// queued in one bbolt transaction, so one fsync, per window: the window opens
// when a change is added to an empty queue and lasts interval (or, if a commit
// is still running then, until it ends). So a change is on disk at most
// interval plus two commits after Add. It is safe for concurrent use.
type Writer struct {
	db       *bolt.DB
	interval time.Duration
	log      *slog.Logger

	mu        sync.Mutex
	pending   []Record
	firstAt   time.Time     // when the oldest queued record was added
	added     uint64        // tickets handed out: the last record added
	committed uint64        // every record up to this ticket is on disk
	changed   chan struct{} // closed and replaced at every commit
	closed    bool
	stats     WriterStats

	kick  chan struct{} // cap 1: the queue went from empty to not empty
	hurry chan struct{} // cap 1: someone waits in Flush: end the window now
	stop  chan struct{}
	done  chan struct{}
	err   error // the last commit's, set before done closes
}

// WriterStats describe the writer for /healthz.
type WriterStats struct {
	Pending   uint64 `json:"pending"`    // records added and not yet on disk
	Commits   uint64 `json:"commits"`    // transactions committed
	Records   uint64 `json:"records"`    // records committed
	Failures  uint64 `json:"failures"`   // commits that failed (retried)
	Rejected  uint64 `json:"rejected"`   // records bbolt cannot take (a key over 32 KiB, an empty key): dropped alone, logged
	LastError string `json:"last_error"` // the last failure's error, if any
	Failing   bool   `json:"failing"`    // the last commit failed: uses wait in memory until one succeeds
}

// maxRetry bounds the pause between retries of a failing commit.
const maxRetry = time.Second

func newWriter(db *bolt.DB, interval time.Duration, log *slog.Logger) *Writer {
	w := &Writer{
		db: db, interval: interval, log: log,
		changed: make(chan struct{}),
		kick:    make(chan struct{}, 1),
		hurry:   make(chan struct{}, 1),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	go w.run()
	return w
}

// Add queues r and returns its ticket for Wait. It never waits for the disk.
func (w *Writer) Add(r Record) (uint64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, ErrClosed
	}
	w.pending = append(w.pending, r)
	w.added++
	if len(w.pending) == 1 {
		w.firstAt = time.Now()
		select {
		case w.kick <- struct{}{}:
		default:
		}
	}
	return w.added, nil
}

// Last is the ticket of the last record added.
func (w *Writer) Last() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.added
}

// Durable reports whether the record of ticket, and every one before it, is
// on disk (or was rejected: it never will be).
func (w *Writer) Durable(ticket uint64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.committed >= ticket
}

// Wait waits until the record of ticket, and every one before it, is on
// disk, or ctx ends. It does not hurry the writer.
func (w *Writer) Wait(ctx context.Context, ticket uint64) error {
	for {
		w.mu.Lock()
		ok, ch := w.committed >= ticket, w.changed
		w.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-w.done: // the writer is gone: what is committed now is final
			w.mu.Lock()
			ok = w.committed >= ticket
			w.mu.Unlock()
			if !ok {
				return fmt.Errorf("wait for commit: %w", ErrClosed)
			}
			return nil
		case <-ctx.Done():
			return fmt.Errorf("wait for commit: %w", ctx.Err())
		}
	}
}

// Flush waits, as Wait does, until the record of ticket and every one before
// it is on disk, and has the writer commit now instead of at the end of its
// window: a caller that must not answer before its record is durable (the
// webhook, whose 200 tells the REST API the frame is taken) waits for one
// commit, not for STATE_COMMIT_INTERVAL. Records added meanwhile by others
// go in the same commit, so concurrent callers still share one fsync.
func (w *Writer) Flush(ctx context.Context, ticket uint64) error {
	w.mu.Lock()
	ok := w.committed >= ticket
	w.mu.Unlock()
	if ok {
		return nil
	}
	select {
	case w.hurry <- struct{}{}:
	default: // a hurry is already pending
	}
	return w.Wait(ctx, ticket)
}

// Stats reports the queue and the commits so far.
func (w *Writer) Stats() WriterStats {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := w.stats
	s.Pending = w.added - w.committed
	return s
}

// Close commits everything queued and stops the writer; records added later
// are refused. It returns the last commit's error: a non-nil one means the
// records still queued are lost.
func (w *Writer) Close() error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.stop)
	}
	w.mu.Unlock()
	<-w.done
	return w.err
}

// run is the writer goroutine.
func (w *Writer) run() {
	defer close(w.done)
	retry := w.interval
	for {
		select {
		case <-w.kick:
		case <-w.stop:
			w.err = w.commit()
			return
		}
		w.mu.Lock()
		due := w.firstAt.Add(w.interval)
		w.mu.Unlock()
		if !w.sleep(time.Until(due), w.hurry) {
			w.err = w.commit()
			return
		}
		for w.commit() != nil { // a failed batch stays queued, in front
			retry = min(max(2*retry, time.Millisecond), maxRetry)
			if !w.sleep(retry, nil) { // a failing disk is not hurried
				w.err = w.commit()
				return
			}
		}
		retry = w.interval
	}
}

// sleep waits d, or less if hurry (nil: never) delivers; false means Close
// was called meanwhile.
func (w *Writer) sleep(d time.Duration, hurry <-chan struct{}) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-hurry:
		return true
	case <-w.stop:
		return false
	}
}

// commit writes every queued record in one transaction. A record bbolt
// cannot take is dropped alone (reject.go); on any other failure the
// records go back in front of the queue.
func (w *Writer) commit() error {
	w.mu.Lock()
	batch, upTo := w.pending, w.added
	w.pending = nil
	w.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	batch, bad := screen(batch)
	batch, more, err := w.update(batch)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reject(append(bad, more...))
	if err != nil {
		w.pending = append(batch, w.pending...)
		w.stats.Failures++
		w.stats.LastError = err.Error()
		w.stats.Failing = true
		if w.log != nil {
			w.log.Error("state commit failed; retrying", "records", len(w.pending), "err", err)
		}
		return fmt.Errorf("commit state: %w", err)
	}
	w.committed = upTo
	w.stats.Failing = false
	if len(batch) > 0 { // else every record was rejected: no transaction ran
		w.stats.Commits++
		w.stats.Records += uint64(len(batch))
	}
	close(w.changed)
	w.changed = make(chan struct{})
	return nil
}
