package app

import (
	"context"
	"time"
)

// drainPoll is how often drainWebhook looks whether the queue has emptied.
const drainPoll = 5 * time.Millisecond

// drainWebhook is the first half of a shutdown in webhook mode: the frames
// already accepted finish while the webhook still takes POSTs, and once the
// FIFO and the slots are empty the HTTP server stops. Refusing POSTs during
// the drain would lose each one (the REST API posts a message once), and
// leaving one unanswered would stall the drain itself, since the REST API's
// read loop carries the replies of the frames being finished. What arrives
// after the server stopped is refused and lost, or, with a socket from
// systemd, waits in the kernel's queue for the next process. It returns when
// ctx ends, whatever is left.
func (a *App) drainWebhook(ctx context.Context) {
	t := time.NewTicker(drainPoll)
	defer t.Stop()
	for {
		if s := a.pipe.Stats(); s.Depth == 0 && s.Active == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
	if err := a.http.Shutdown(ctx); err != nil {
		a.log.Warn("webhook requests cut off at shutdown", "err", err)
	}
}
