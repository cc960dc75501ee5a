package httpapi

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimit caps the connections the bot's server holds. A connection over
// the cap closes the one that has waited longest without a request in
// flight (new or idle), so idle and slow clients cannot lock a real client
// out; when every held connection has a request in flight, the newcomer is
// closed instead. It is safe for concurrent use.
type connLimit struct {
	max int

	mu      sync.Mutex // guards the fields below
	conns   map[net.Conn]connState
	evicted int64
	refused int64
}

type connState struct {
	state http.ConnState
	since time.Time
}

func newConnLimit(max int) *connLimit {
	return &connLimit{max: max, conns: make(map[net.Conn]connState)}
}

// admit holds c if there is room or room can be made.
func (l *connLimit) admit(c net.Conn, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.conns) >= l.max {
		var victim net.Conn
		var oldest time.Time
		for conn, st := range l.conns {
			if st.state != http.StateActive && (victim == nil || st.since.Before(oldest)) {
				victim, oldest = conn, st.since
			}
		}
		if victim == nil {
			l.refused++
			return false
		}
		delete(l.conns, victim)
		_ = victim.Close()
		l.evicted++
	}
	l.conns[c] = connState{state: http.StateNew, since: now}
	return true
}

// track is the server's ConnState hook.
func (l *connLimit) track(c net.Conn, s http.ConnState) { l.set(c, s, time.Now()) }

// set records that c entered state s at now.
func (l *connLimit) set(c net.Conn, s http.ConnState, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch s {
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
	default:
		if _, ok := l.conns[c]; ok {
			l.conns[c] = connState{state: s, since: now}
		}
	}
}

// stats returns the connections held and those closed to make room or refused.
func (l *connLimit) stats() (held int, evicted, refused int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns), l.evicted, l.refused
}

// limitedListener admits each accepted connection through a connLimit.
type limitedListener struct {
	net.Listener
	l *connLimit
}

func (ll limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := ll.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if ll.l.admit(c, time.Now()) {
			return c, nil
		}
		_ = c.Close()
	}
}
