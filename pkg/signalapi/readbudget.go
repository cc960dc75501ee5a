package signalapi

import "sync"

// readBudget is the webhook's one semaphore in bytes: every POST reserves
// its body's size before reading it and gives it back once the intake has
// its frame, so the bodies being read and decoded at once hold at most max
// bytes, however many POSTs come together. It never waits: a POST that does
// not fit is answered 503 at once, unread. It is safe for concurrent use.
type readBudget struct {
	max int64

	mu   sync.Mutex
	held int64
}

// take reserves n bytes, or reports false when they do not fit now.
func (b *readBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.held+n > b.max {
		return false
	}
	b.held += n
	return true
}

// give returns n bytes taken before.
func (b *readBudget) give(n int64) {
	b.mu.Lock()
	b.held -= n
	b.mu.Unlock()
}
