package pipeline

import "sync"

// turns orders the items of each key (sender): the scheduler reserves a
// turn for every item with a key in arrival order, an item's task waits
// until its turn is first (Slot.AwaitTurn), and the pipeline ends the turn
// when the task ends. So one sender's commands run one after another, in
// the order they were sent, and keys with no item in flight take no memory.
type turns struct {
	mu   sync.Mutex
	keys map[string][]*turn
}

type turn struct {
	seq   uint64
	ready chan struct{} // closed when this turn is first
}

func newTurns() *turns { return &turns{keys: make(map[string][]*turn)} }

// reserve queues a turn for seq under key. Calls come in seq order.
func (t *turns) reserve(key string, seq uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := &turn{seq: seq, ready: make(chan struct{})}
	q := append(t.keys[key], tr)
	if len(q) == 1 {
		close(tr.ready)
	}
	t.keys[key] = q
}

// ready returns the channel closed when seq's turn comes (closed already if
// seq holds no turn under key).
func (t *turns) ready(key string, seq uint64) <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tr := range t.keys[key] {
		if tr.seq == seq {
			return tr.ready
		}
	}
	c := make(chan struct{})
	close(c)
	return c
}

// end ends seq's turn (waiting or current) and lets the next one go.
func (t *turns) end(key string, seq uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	q := t.keys[key]
	for i, tr := range q {
		if tr.seq != seq {
			continue
		}
		q = append(q[:i], q[i+1:]...)
		if i == 0 && len(q) > 0 {
			close(q[0].ready)
		}
		break
	}
	if len(q) == 0 {
		delete(t.keys, key)
	} else {
		t.keys[key] = q
	}
}

// len is the number of keys with items in flight.
func (t *turns) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.keys)
}

// pending counts each key's items from Push until they finish, so that one
// sender's flood is cut at the door, before it takes FIFO places from others.
type pending struct {
	mu sync.Mutex
	n  map[string]int
}

func newPending() *pending { return &pending{n: make(map[string]int)} }

// add counts an item of key unless limit items already wait behind a
// running one (limit+1 in all). Key "" (no sender: receipts, typing,
// malformed frames, which get no reply and finish at once) is not limited:
// dropping those would count a loss where nothing is lost.
func (p *pending) add(key string, limit int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if key != "" && p.n[key] > limit {
		return false
	}
	p.n[key]++
	return true
}

// remove uncounts an item of key.
func (p *pending) remove(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n[key] <= 1 {
		delete(p.n, key)
		return
	}
	p.n[key]--
}
