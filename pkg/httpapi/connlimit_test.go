package httpapi

import (
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// pipeConn is one end of an in-memory connection, whose other end is
// closed with it.
func pipeConn(t *testing.T) net.Conn {
	a, b := net.Pipe()
	t.Cleanup(func() { _ = a.Close(); _ = b.Close() })
	return a
}

// closed reports whether c was closed (a write to a closed pipe fails at once).
func closed(c net.Conn) bool {
	_ = c.SetWriteDeadline(time.Now().Add(time.Millisecond))
	_, err := c.Write([]byte{0})
	return errors.Is(err, io.ErrClosedPipe)
}

func TestConnLimit(t *testing.T) {
	t0 := time.Unix(1000, 0)
	l := newConnLimit(3)
	a, b, c := pipeConn(t), pipeConn(t), pipeConn(t)
	for i, conn := range []net.Conn{a, b, c} {
		if !l.admit(conn, t0.Add(time.Duration(i)*time.Second)) {
			t.Fatalf("conn %d refused under the cap", i)
		}
	}
	l.set(a, http.StateActive, t0.Add(3*time.Second)) // a request in flight: never evicted
	l.set(b, http.StateIdle, t0.Add(5*time.Second))   // idle since 5 s; c new since 2 s: c is the longest waiting
	d := pipeConn(t)
	if !l.admit(d, t0.Add(6*time.Second)) {
		t.Fatal("new connection refused while idle ones were held")
	}
	if got := []bool{closed(a), closed(b), closed(c)}; got[0] || got[1] || !got[2] {
		t.Errorf("closed a, b, c = %v; want only c, the longest without a request", got)
	}
	l.set(b, http.StateActive, t0.Add(7*time.Second))
	l.set(d, http.StateActive, t0.Add(7*time.Second))
	e := pipeConn(t)
	if l.admit(e, t0.Add(8*time.Second)) {
		t.Error("admitted a fourth connection while all three held had a request in flight")
	}
	l.set(a, http.StateClosed, t0.Add(9*time.Second))
	if !l.admit(e, t0.Add(9*time.Second)) {
		t.Error("refused a connection after one closed")
	}
	held, evicted, refused := l.stats()
	if held != 3 || evicted != 1 || refused != 1 {
		t.Errorf("held, evicted, refused = %d, %d, %d; want 3, 1, 1", held, evicted, refused)
	}
}
