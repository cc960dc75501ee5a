package httpapi

import (
	"net"
	"net/http"
	"time"
)

// maxHeaderBytes bounds a request's header: these endpoints need a few hundred bytes.
const maxHeaderBytes = 16 << 10

// headerTimeout is the most a client has to send its request's header.
const headerTimeout = 5 * time.Second

// NewServer returns the http.Server of the bot's endpoints and the listener
// to serve on, ln under the connection cap. Reads and writes are bounded by
// the longest handler (/_selftest waits up to SELFTEST_TIMEOUT) and a margin,
// so a slow client cannot hold a connection for ever, and net/http does not
// cancel a /_selftest still waiting for its trace. handler is the longest a
// handler runs: /_selftest's wait, SELFTEST_TIMEOUT.
func NewServer(h http.Handler, ln net.Listener, lim Limits, handler time.Duration) (*http.Server, net.Listener) {
	cl := newConnLimit(lim.MaxConns)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: min(headerTimeout, lim.IdleTimeout),
		ReadTimeout:       handler + 10*time.Second,
		WriteTimeout:      handler + 10*time.Second,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         cl.track,
	}
	return srv, limitedListener{Listener: ln, l: cl}
}
