// Package backoff computes the wait before a retry: exponential, capped and
// jittered, as a pure function so callers choose their own clock and
// randomness.
package backoff

import "time"

// Delay is the wait before retry n (0-based: 0 is the first retry): base
// doubled n times and capped at max, then jittered into its upper half by
// jitter in [0, 1], so clients that failed together do not retry together.
// With jitter drawn from [0, 1) the wait lies in [d/2, d).
func Delay(n int, base, max time.Duration, jitter float64) time.Duration {
	d := base
	for i := 0; i < n && d < max; i++ {
		d *= 2
	}
	d = min(d, max)
	return d/2 + time.Duration(float64(d/2)*jitter)
}
