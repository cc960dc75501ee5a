package signalid

import (
	"sync/atomic"
	"time"
)

// Clock hands out message timestamps: epoch milliseconds like Signal's, and
// strictly increasing, so that a timestamp can serve as a message's id even
// when two messages are made in the same millisecond. The zero value is ready;
// it is safe for concurrent use.
type Clock struct {
	last atomic.Int64
}

// Next returns now in epoch milliseconds, or one more than the last timestamp
// handed out when now is not later than it.
func (c *Clock) Next(now time.Time) int64 {
	for {
		last, ts := c.last.Load(), now.UnixMilli()
		if ts <= last {
			ts = last + 1
		}
		if c.last.CompareAndSwap(last, ts) {
			return ts
		}
	}
}
