package telemetry

import (
	"time"

	"go.opentelemetry.io/otel/trace"
)

// traceState is what OwnTime holds for one open frame trace. It is also a
// node of the traceList that orders traces by the time they were first seen.
type traceState struct {
	id   trace.TraceID
	open int
	seen time.Time
	acc  blockAcc // the ended spans, as much of them as the block needs

	prev, next *traceState
}

// traceList is an intrusive doubly linked list of traces, oldest first.
// Because traces are pushed in the order they are first seen, the oldest
// one is always at the front, so sweeping by age and evicting by cap are
// both O(1) per trace.
type traceList struct {
	oldest, newest *traceState
}

// push appends st as the newest trace.
func (l *traceList) push(st *traceState) {
	st.prev, st.next = l.newest, nil
	if l.newest != nil {
		l.newest.next = st
	} else {
		l.oldest = st
	}
	l.newest = st
}

// remove unlinks st from the list.
func (l *traceList) remove(st *traceState) {
	if st.prev != nil {
		st.prev.next = st.next
	} else {
		l.oldest = st.next
	}
	if st.next != nil {
		st.next.prev = st.prev
	} else {
		l.newest = st.prev
	}
	st.prev, st.next = nil, nil
}
