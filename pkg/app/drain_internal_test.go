package app

import (
	"net"
	"net/http"
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
