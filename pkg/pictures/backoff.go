package pictures

import "time"

// backoff is the wait after the n-th consecutive failed refill (n >= 1):
// lo doubled n-1 times and capped at hi, then jittered into its upper half
// by jitter in [0, 1), so pools that failed together do not retry together.
// It is pure.
func backoff(n int, lo, hi time.Duration, jitter float64) time.Duration {
	d := lo
	for i := 1; i < n && d < hi; i++ {
		d *= 2
	}
	d = min(d, hi)
	return d/2 + time.Duration(float64(d/2)*jitter)
}
