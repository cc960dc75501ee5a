package pictures

import (
	"context"
	"fmt"
	"sync"
)

// Budget is a weighted semaphore in bytes: every decode reserves what its
// header says decoding will allocate before it allocates, and gives it back
// when done, so the decodes of every Source sharing one Budget never hold
// more than its size together. Waiters are served in arrival order, so a
// large picture is not starved by a stream of small ones. It is safe for
// concurrent use.
type Budget struct {
	size int64

	mu      sync.Mutex // guards the fields below
	used    int64
	waiters []*budgetWaiter
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed once n is reserved for this waiter
}

// NewBudget returns a Budget of size bytes (DECODE_BUDGET_BYTES, checked by
// Config.Validate); a size of zero refuses every picture.
func NewBudget(size int64) *Budget {
	return &Budget{size: size}
}

// Size is the most the Budget hands out at once.
func (b *Budget) Size() int64 { return b.size }

// Acquire reserves n bytes, waiting under ctx until they are free. A request
// for more than Size fails at once, since it could never be met.
func (b *Budget) Acquire(ctx context.Context, n int64) error {
	if n > b.size {
		return fmt.Errorf("%w: %d bytes over the decode budget of %d", ErrTooBig, n, b.size)
	}
	b.mu.Lock()
	if len(b.waiters) == 0 && b.used+n <= b.size {
		b.used += n
		b.mu.Unlock()
		return nil
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted while giving up: hand it back
		b.used -= n
		b.grantLocked()
	default:
		for i, x := range b.waiters {
			if x == w {
				b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
				break
			}
		}
		b.grantLocked() // the head may have changed
	}
	return fmt.Errorf("wait for %d bytes of decode budget: %w", n, ctx.Err())
}

// Release gives back n bytes reserved by Acquire.
func (b *Budget) Release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	if b.used < 0 {
		panic("pictures: Budget released more than was acquired")
	}
	b.grantLocked()
}

// Used is how many bytes are reserved now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// grantLocked wakes waiters in order while the head one fits.
func (b *Budget) grantLocked() {
	for len(b.waiters) > 0 && b.used+b.waiters[0].n <= b.size {
		w := b.waiters[0]
		b.waiters = b.waiters[1:]
		b.used += w.n
		close(w.ready)
	}
}

// waiting is how many Acquire calls wait.
func (b *Budget) waiting() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.waiters)
}
