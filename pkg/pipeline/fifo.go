package pipeline

// item is one pushed item on its way to its task.
type item[T any] struct {
	key  string // its turn's key; "": it takes no turn
	size int    // bytes, held against QueueBytes
	seq  uint64 // arrival order
	val  T
}

// Push queues v without ever waiting. key orders it: the items of one key
// run one after another, in the order they were pushed, and share
// SenderQueue; key "" is an item that waits for nobody (nothing of its
// sender waits for it either), so it runs as soon as it has a slot. size is
// what it holds of QueueBytes until it finishes. A full or closed queue is
// an error, counted.
func (p *Pipeline[T]) Push(key string, size int, v T) error {
	it := &item[T]{key: key, size: size, seq: p.seq.Add(1), val: v}
	p.mu.RLock()
	defer p.mu.RUnlock()
	switch {
	case p.closed:
		return ErrClosed
	// Here, not in Run: the key's count is checked at the door, so that one
	// sender's flood cannot take the FIFO's places from everyone else.
	case !p.pending.add(key, p.cfg.SenderQueue):
		p.droppedSender.Add(1)
		return ErrSender
	case !p.hold(size):
		p.pending.remove(key)
		p.droppedBytes.Add(1)
		return ErrBytes
	case !p.reserve():
		p.pending.remove(key)
		p.held.Add(-int64(size))
		p.dropped.Add(1)
		return ErrFull
	}
	p.fifo <- it // never blocks: the channel holds QueueDepth, reserve bounds it
	p.accepted.Add(1)
	return nil
}

// reserve takes a place in the queue if one is left.
func (p *Pipeline[T]) reserve() bool {
	for {
		n := p.queued.Load()
		if n >= int64(cap(p.fifo)) {
			return false
		}
		if p.queued.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// hold takes n bytes of QueueBytes if they are left.
func (p *Pipeline[T]) hold(n int) bool {
	for {
		h := p.held.Load()
		if h+int64(n) > p.cfg.QueueBytes {
			return false
		}
		if p.held.CompareAndSwap(h, h+int64(n)) {
			return true
		}
	}
}

// release gives back what a finished item held: its turn, its bytes and its
// place in its key's queue.
func (p *Pipeline[T]) release(it *item[T]) {
	if it.key != "" {
		p.turns.end(it.key, it.seq)
	}
	p.held.Add(-int64(it.size))
	p.pending.remove(it.key)
}
