package journal

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNotDurable is Sync's error for a frame taken in memory: its entry is
// not on disk yet, and the caller answers all the same.
var ErrNotDurable = errors.New("journal entry not on disk yet: frame taken in memory")

// Sync waits until every frame journaled so far is on disk, having the state
// writer commit now rather than at the end of its window (store.Writer.Flush).
// The webhook calls it before it answers 200, so a frame the REST API was
// told is taken survives a kill -9 right after. With the journal off it
// returns at once.
//
// The wait is bounded by SyncWait (0: by ctx alone): past it, or at once while frames taken
// in memory before are still not on disk (a failing commit: a full disk),
// it returns ErrNotDurable and counts the frame as not durable. Its entry
// stays queued in the writer, which retries, so it is written once commits
// succeed again. The REST API's posting loop is serial and carries every
// REST answer: a webhook that waited for a disk that fails would stop the
// bot's replies along with its intake (docs/faults.md §14).
func (j *Journal) Sync(ctx context.Context) error {
	if !j.Enabled() {
		return nil
	}
	ticket := j.w.Last()
	err := ctx.Err() // a request already gone does not hurry the writer
	if err == nil && j.caughtUp() {
		wctx, cancel := ctx, context.CancelFunc(func() {})
		if j.cfg.SyncWait > 0 {
			wctx, cancel = context.WithTimeout(ctx, j.cfg.SyncWait)
		}
		err = j.w.Flush(wctx, ticket)
		cancel()
		if err == nil {
			return nil
		}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.stats.NotDurable++
	j.stats.Behind++
	j.behind = max(j.behind, ticket)
	if j.stats.BehindSince == nil {
		now := time.Now()
		j.stats.BehindSince = &now
	}
	if err == nil {
		return fmt.Errorf("journal: %w (%d before it wait for a commit)", ErrNotDurable, j.stats.Behind-1)
	}
	return fmt.Errorf("journal: %w: %w", ErrNotDurable, err)
}

// caughtUp reports whether every frame taken in memory is on disk now, and
// forgets them if so.
func (j *Journal) caughtUp() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.behind == 0 || !j.w.Durable(j.behind) {
		return j.behind == 0
	}
	j.behind, j.stats.Behind, j.stats.BehindSince = 0, 0, nil
	return true
}
