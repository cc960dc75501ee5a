package httpapi

import (
	"net"
	"net/http"
	"time"

	"signal-bot/pkg/fields"
)

// ServerLimits are the bounds of the bot's HTTP server.
type ServerLimits struct {
	MaxConns int           // connections held at once
	Idle     time.Duration // keep-alive idle; headers of a new connection within min(5 s, Idle)
	Handler  time.Duration // the longest a handler runs: /_selftest's wait
}

// maxHeaderBytes bounds a request's header: these endpoints need a few hundred bytes.
const maxHeaderBytes = 16 << 10

// headerTimeout is the most a client has to send its request's header.
const headerTimeout = 5 * time.Second

// NewServer returns the http.Server of the bot's endpoints and the listener
// to serve on, ln under the connection cap. Reads and writes are bounded by
// the longest handler (/_selftest waits up to SELFTEST_TIMEOUT) and a margin,
// so a slow client cannot hold a connection for ever, and net/http does not
// cancel a /_selftest still waiting for its trace.
//
// It refuses limits without MaxConns, Idle or Handler (HTTP_MAX_CONNS,
// HTTP_IDLE_TIMEOUT, SELFTEST_TIMEOUT), naming each.
func NewServer(h http.Handler, ln net.Listener, lim ServerLimits) (*http.Server, net.Listener, error) {
	if err := fields.Check("httpapi",
		fields.Positive("ServerLimits.MaxConns", lim.MaxConns),
		fields.Positive("ServerLimits.Idle", lim.Idle),
		fields.Positive("ServerLimits.Handler", lim.Handler),
	); err != nil {
		return nil, nil, err
	}
	cl := newConnLimit(lim.MaxConns)
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: min(headerTimeout, lim.Idle),
		ReadTimeout:       lim.Handler + 10*time.Second,
		WriteTimeout:      lim.Handler + 10*time.Second,
		IdleTimeout:       lim.Idle,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         cl.track,
	}
	return srv, limitedListener{Listener: ln, l: cl}, nil
}
