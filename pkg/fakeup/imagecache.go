package fakeup

import "sync"

// imageCache keeps the most recently generated images, so repeated
// downloads of the same picture cost no CPU. It holds at most max entries and
// evicts the oldest first.
type imageCache struct {
	mu    sync.Mutex
	max   int
	order []string
	m     map[string][]byte
}

func newImageCache(max int) *imageCache {
	return &imageCache{max: max, m: make(map[string][]byte, max)}
}

// get returns the cached bytes for key, calling gen outside the lock when
// they are missing. Two concurrent misses may both generate; the bytes are
// identical, so either result is kept.
func (c *imageCache) get(key string, gen func() []byte) []byte {
	c.mu.Lock()
	b, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return b
	}
	b = gen()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok {
		if len(c.order) >= c.max {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, key)
		c.m[key] = b
	}
	return b
}
