package app

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// drainPoll is how often drainWebhook looks whether the queue has emptied.
const drainPoll = 5 * time.Millisecond

// drainWebhook is the first half of a shutdown in webhook mode: the frames
// already accepted finish while the webhook still takes POSTs, and once the
// FIFO, the slots and the connections are quiet the listener closes. Refusing POSTs during
// the drain would lose each one (the REST API posts a message once), and
// leaving one unanswered would stall the drain itself, since the REST API's
// read loop carries the replies of the frames being finished. What arrives
// after the listener closed is refused and lost, or, with a socket from
// systemd, waits in the kernel's queue for the next process.
//
// The connections already accepted are answered before the server shuts
// down: http.Server.Shutdown drops a request it reads after it began, which
// would lose a POST the kernel had already handed to this process. It returns
// when ctx ends, whatever is left.
func (a *App) drainWebhook(ctx context.Context, served <-chan struct{}) {
	// Quiet means no frame queued or running and no request being read: a
	// request read after the close would bring a frame whose reply may have
	// to wait behind the REST API's next POST, which then waits on a socket
	// no process accepts on (with a socket from systemd) until ctx ends.
	quiet := func() bool { s := a.intake.Stats(); return s.Depth == 0 && s.Active == 0 && a.conns.busy() == 0 }
	if !waitUntil(ctx, quiet) {
		return
	}
	if err := closeAndAnswer(ctx, a.http, a.ln, served, a.conns.busy); err != nil {
		a.log.Warn("webhook requests cut off at shutdown", "err", err)
	}
}

// closeAndAnswer closes the listener, answers every connection it had
// accepted and then shuts srv down. It waits for srv.Serve to return
// (served closes) before it counts the busy connections: a connection the
// kernel handed over just before the close is only counted once Serve has
// marked it new, and shutting down before that drops its request unread.
func closeAndAnswer(ctx context.Context, srv *http.Server, ln net.Listener, served <-chan struct{}, busy func() int) error {
	_ = ln.Close() // onceCloseListener: Shutdown's own Close later is a no-op
	select {
	case <-served:
	case <-ctx.Done():
		return ctx.Err()
	}
	if !waitUntil(ctx, func() bool { return busy() == 0 }) {
		return ctx.Err()
	}
	return srv.Shutdown(ctx)
}

// waitUntil polls done every drainPoll until it holds (true) or ctx ends
// (false).
func waitUntil(ctx context.Context, done func() bool) bool {
	t := time.NewTicker(drainPoll)
	defer t.Stop()
	for !done() {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
	return true
}

// connTracker counts the HTTP connections with a request not yet answered:
// new ones (accepted, request not read yet) and active ones. Hook its
// track method to http.Server.ConnState.
type connTracker struct {
	mu    sync.Mutex
	state map[net.Conn]http.ConnState
	n     int
}

func (c *connTracker) track(conn net.Conn, s http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == nil {
		c.state = map[net.Conn]http.ConnState{}
	}
	waiting := func(s http.ConnState) bool { return s == http.StateNew || s == http.StateActive }
	prev, known := c.state[conn]
	if known && waiting(prev) {
		c.n--
	}
	if waiting(s) {
		c.n++
	}
	if s == http.StateClosed || s == http.StateHijacked {
		delete(c.state, conn)
		return
	}
	c.state[conn] = s
}

func (c *connTracker) busy() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// onceCloseListener closes its listener once; later Closes return nil.
type onceCloseListener struct {
	net.Listener
	once sync.Once
	err  error
}

func (l *onceCloseListener) Close() error {
	l.once.Do(func() { l.err = l.Listener.Close() })
	return l.err
}
