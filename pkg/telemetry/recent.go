package telemetry

import "go.opentelemetry.io/otel/trace"

// recentRing remembers the results of the last n finished traces so Await
// can be called after a trace completed. Not safe for concurrent use: OwnTime
// holds its lock.
type recentRing struct {
	ids     []trace.TraceID
	results map[trace.TraceID]awaitResult
	next    int
	full    bool
}

// newRecentRing returns a ring of n entries.
func newRecentRing(n int) recentRing {
	return recentRing{ids: make([]trace.TraceID, n), results: make(map[trace.TraceID]awaitResult, n)}
}

// add records r for id, forgetting the oldest entry when the ring is full.
func (r *recentRing) add(id trace.TraceID, res awaitResult) {
	if r.full {
		delete(r.results, r.ids[r.next])
	}
	r.ids[r.next] = id
	r.results[id] = res
	r.next++
	if r.next == len(r.ids) {
		r.next, r.full = 0, true
	}
}

// get returns the result recorded for id.
func (r *recentRing) get(id trace.TraceID) (awaitResult, bool) {
	res, ok := r.results[id]
	return res, ok
}
