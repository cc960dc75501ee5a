package bot

import (
	"sync/atomic"
	"time"
)

// Heard is when the bot last read a frame from the REST API, for /healthz
// and /metrics. Any frame counts, a receipt or typing as much as a command,
// and so does one the bot could not decode or had to drop: each one shows
// that signal-cli receives and the REST API hands on. Neither the
// websocket's pings (the REST API sends them whatever signal-cli does) nor
// /_selftest's synthetic frames nor the journal's replay count.
type Heard struct {
	// LastFrameAt is the read time of the last frame; nil: none since start.
	LastFrameAt *time.Time
	// Since is when the intake started: silence is counted from it while
	// no frame has come.
	Since time.Time
}

// Last is the last frame's read time, else the start.
func (h Heard) Last() time.Time {
	if h.LastFrameAt != nil {
		return *h.LastFrameAt
	}
	return h.Since
}

// Age is how long nothing has been heard at now: since the last frame, or
// since the start while none has come; never negative.
func (h Heard) Age(now time.Time) time.Duration { return max(now.Sub(h.Last()), 0) }

// heard keeps the latest read time of the frames offered.
type heard struct {
	since time.Time
	last  atomic.Int64 // unix ns; 0: none
}

// note records a frame read at at; an earlier read time than the last one
// (two receivers, or a webhook POST that took long) leaves it.
func (h *heard) note(at time.Time) {
	ns := at.UnixNano()
	for {
		old := h.last.Load()
		if ns <= old || h.last.CompareAndSwap(old, ns) {
			return
		}
	}
}

func (h *heard) get() Heard {
	out := Heard{Since: h.since}
	if ns := h.last.Load(); ns != 0 {
		at := time.Unix(0, ns)
		out.LastFrameAt = &at
	}
	return out
}
