package app

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func TestConnTracker(t *testing.T) {
	a, b := &net.TCPConn{}, &net.TCPConn{}
	type step struct {
		conn net.Conn
		st   http.ConnState
	}
	tests := []struct {
		name  string
		steps []step
		want  int
	}{
		{"new is waiting", []step{{a, http.StateNew}}, 1},
		{"answered and closed", []step{{a, http.StateNew}, {a, http.StateActive}, {a, http.StateClosed}}, 0},
		{"kept alive, idle", []step{{a, http.StateNew}, {a, http.StateActive}, {a, http.StateIdle}}, 0},
		{"idle, then a second request", []step{{a, http.StateNew}, {a, http.StateActive}, {a, http.StateIdle}, {a, http.StateActive}}, 1},
		{"closed before a request", []step{{a, http.StateNew}, {a, http.StateClosed}}, 0},
		{"two, one answered", []step{{a, http.StateNew}, {b, http.StateNew}, {b, http.StateActive}, {b, http.StateClosed}}, 1},
		{"hijacked", []step{{a, http.StateNew}, {a, http.StateActive}, {a, http.StateHijacked}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c connTracker
			for _, s := range tt.steps {
				c.track(s.conn, s.st)
			}
			if got := c.busy(); got != tt.want {
				t.Errorf("busy() = %d; want %d", got, tt.want)
			}
		})
	}
}

// gatedListener hands over each accepted connection only once Close was
// called: the window in which the kernel gave the process a connection just
// before the listener closed, held open.
type gatedListener struct {
	net.Listener
	got    chan struct{} // a connection was accepted
	closed chan struct{}
	once   sync.Once
}

func (l *gatedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.got <- struct{}{}
	<-l.closed
	return c, nil
}

func (l *gatedListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

func TestCloseAndAnswerServesWhatWasAccepted(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := &gatedListener{Listener: inner, got: make(chan struct{}, 1), closed: make(chan struct{})}
	var answered atomic.Bool
	var conns connTracker
	srv := &http.Server{
		Handler:   http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { answered.Store(true) }),
		ConnState: conns.track,
	}
	srv.SetKeepAlivesEnabled(false)
	served := make(chan struct{})
	go func() { defer close(served); _ = srv.Serve(ln) }()
	status := make(chan int, 1)
	go func() {
		resp, err := http.Post("http://"+inner.Addr().String()+"/_webhook", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Error(err)
			status <- 0
			return
		}
		resp.Body.Close()
		status <- resp.StatusCode
	}()
	<-ln.got
	if err := closeAndAnswer(t.Context(), srv, ln, served, conns.busy); err != nil {
		t.Fatal(err)
	}
	if !answered.Load() {
		t.Error("the server shut down before answering the request on a connection accepted before the close")
	}
	if code := <-status; code != http.StatusOK {
		t.Errorf("status %d; want 200", code)
	}
}
