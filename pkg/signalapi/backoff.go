package signalapi

import (
	"math/rand/v2"
	"time"
)

// Backoff is the wait before reconnect attempt n (0-based): exponential from
// base, capped at max, with full jitter in [d/2, d).
func Backoff(n int, base, max time.Duration, r *rand.Rand) time.Duration {
	d := base
	for i := 0; i < n && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	half := d / 2
	if half <= 0 {
		return d
	}
	return half + time.Duration(r.Int64N(int64(half)))
}
