package httpapi

import (
	"net/http"
	"sync"
	"time"
)

// limiter is a token bucket: rate tokens per second, at most rate in store.
// It bounds how fast the selftest and override endpoints can be driven to
// send real messages. Safe for concurrent use.
type limiter struct {
	mu     sync.Mutex
	rate   float64
	tokens float64
	last   time.Time
}

func newLimiter(rate float64) *limiter {
	return &limiter{rate: rate, tokens: rate, last: time.Now()}
}

// allow takes a token if one is left.
func (l *limiter) allow(now time.Time) bool {
	if l == nil || l.rate <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tokens = min(l.rate, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}

// limit answers 429 with Retry-After once the bucket is empty. (A cooldown
// 429 from /_selftest carries a trace_id instead.)
func (s *Server) limit(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.lim.allow(time.Now()) {
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusTooManyRequests, "too many selftest requests; see SELFTEST_RATE")
			return
		}
		next(w, r)
	}
}
