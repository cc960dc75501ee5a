package outbound

import "time"

// bucket is a token bucket that hands out reservations: a taker that finds it empty
// takes a token it will only have later, and learns how long to wait for it. Tokens
// are float so that a slow refill (one per 2 s) keeps its fractions.
type bucket struct {
	size   float64
	per    time.Duration // one token back per per
	tokens float64       // may be below zero: reservations ahead of the refill
	at     time.Time
}

func newBucket(n int, period time.Duration, now time.Time) *bucket {
	return &bucket{size: float64(n), per: period / time.Duration(n), tokens: float64(n), at: now}
}

// refill brings the level up to now.
func (b *bucket) refill(now time.Time) {
	if now.After(b.at) {
		b.tokens = min(b.size, b.tokens+float64(now.Sub(b.at))/float64(b.per))
		b.at = now
	}
}

// wait is how long a taker of n tokens would wait at now; it takes nothing.
func (b *bucket) wait(n int, now time.Time) time.Duration {
	b.refill(now)
	short := float64(n) - b.tokens
	if short <= 0 {
		return 0
	}
	return time.Duration(short * float64(b.per))
}

// take takes n tokens, going below zero if it must; call it after wait said yes.
func (b *bucket) take(n int) { b.tokens -= float64(n) }

// give puts back n tokens a reservation took and did not use.
func (b *bucket) give(n int) { b.tokens = min(b.size, b.tokens+float64(n)) }

// full reports whether the bucket is full at now, so it can be forgotten.
func (b *bucket) full(now time.Time) bool {
	b.refill(now)
	return b.tokens >= b.size
}
