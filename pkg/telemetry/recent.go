package telemetry

import "go.opentelemetry.io/otel/trace"

// recentRing remembers the results of the last n finished traces so Await
// can be called after a trace completed. The results stay in the ring; the
// map only indexes it, so that a frame's result is copied once, not into a
// map's slot as well. Not safe for concurrent use: OwnTime holds its lock.
type recentRing struct {
	entries []recentEntry
	index   map[trace.TraceID]int // into entries
	next    int
	full    bool
}

// recentEntry is one finished trace's result.
type recentEntry struct {
	id  trace.TraceID
	res awaitResult
}

// newRecentRing returns a ring of n entries.
func newRecentRing(n int) recentRing {
	return recentRing{entries: make([]recentEntry, n), index: make(map[trace.TraceID]int, n)}
}

// add records r for id, forgetting the oldest entry when the ring is full.
func (r *recentRing) add(id trace.TraceID, res awaitResult) {
	e := &r.entries[r.next]
	if r.full && r.index[e.id] == r.next { // not when id came again since
		delete(r.index, e.id)
	}
	e.id, e.res = id, res
	r.index[id] = r.next
	r.next++
	if r.next == len(r.entries) {
		r.next, r.full = 0, true
	}
}

// get returns the result recorded for id.
func (r *recentRing) get(id trace.TraceID) (awaitResult, bool) {
	i, ok := r.index[id]
	if !ok {
		return awaitResult{}, false
	}
	return r.entries[i].res, true
}
