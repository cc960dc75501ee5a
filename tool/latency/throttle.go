package main

import (
	"context"
	"errors"
	"time"
)

const (
	// firstPause is the first wait after a refusal by the bot's rate limit:
	// one token of its bucket at the default 200 per second.
	firstPause = 5 * time.Millisecond
	// maxPause caps the doubling wait.
	maxPause = time.Second
)

// whileThrottled calls try until the bot's rate limit stops refusing it,
// pausing between calls (the Retry-After the bot gives, else a doubling wait
// from firstPause), and counts every refusal with onThrottle (may be nil). It
// returns try's last error, or ctx's when ctx ends during a pause.
func whileThrottled(ctx context.Context, try func() error, onThrottle func()) error {
	pause := firstPause
	for {
		err := try()
		if !throttled(err) {
			return err
		}
		if onThrottle != nil {
			onThrottle()
		}
		wait := pause
		var se *statusError
		if errors.As(err, &se) && se.retryAfter > 0 {
			wait = se.retryAfter
		}
		pause = min(2*pause, maxPause)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}
