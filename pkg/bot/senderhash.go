package bot

import (
	"sync"

	"signal-bot/pkg/telemetry"
)

// senderHashes remembers the span hashes of recent senders: a hash is an
// HMAC (about a microsecond and nine allocations), and dispatch needs one per
// frame. It holds at most max senders and starts afresh when full.
type senderHashes struct {
	key []byte
	max int

	mu sync.Mutex
	m  map[string]string
}

func newSenderHashes(key []byte, max int) *senderHashes {
	return &senderHashes{key: key, max: max, m: make(map[string]string)}
}

// get returns telemetry.SenderHash(key, sender).
func (c *senderHashes) get(sender string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h, ok := c.m[sender]; ok {
		return h
	}
	if len(c.m) >= c.max {
		clear(c.m)
	}
	h := telemetry.SenderHash(c.key, sender)
	c.m[sender] = h
	return h
}
