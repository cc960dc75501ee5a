package main

import (
	"context"
	"fmt"
	"io"
	"time"
)

const (
	// leaseMargin is how much longer than the run's estimated rest an
	// override lives: long enough for the last replies, short enough that a
	// killed tool leaves the cooldown off only briefly.
	leaseMargin = 15 * time.Second
	// maxLease is the longest override the bot accepts.
	maxLease = time.Hour
	// leaseCheck is how often the lease compares its expiry with the run.
	leaseCheck = time.Second
	// restoreTimeout bounds the DELETE that puts the cooldown back.
	restoreTimeout = 5 * time.Second
)

// lease is a cooldown override that lives a little longer than the run: it is
// put before the first request, moved while the run goes on (later when the
// run outlasts it, earlier when the run turns out quicker than estimated), and
// deleted at the end. If the tool is killed, the expiry puts the cooldown back.
type lease struct {
	c              *client
	group, command string
	rest           func() time.Duration // the run's estimated remaining time
	warn           io.Writer
	until          time.Time
	stopKeeping    context.CancelFunc
	done           chan struct{}
}

// takeLease puts the override and keeps it until release.
func takeLease(ctx context.Context, c *client, group, command string, rest func() time.Duration, warn io.Writer) (*lease, error) {
	l := &lease{c: c, group: group, command: command, rest: rest, warn: warn, done: make(chan struct{})}
	if err := l.put(ctx); err != nil {
		return nil, err
	}
	var kctx context.Context
	kctx, l.stopKeeping = context.WithCancel(ctx)
	go l.keep(kctx)
	return l, nil
}

// ttl is the estimated rest of the run plus the margin, within the bot's limit.
func (l *lease) ttl() time.Duration {
	return min(l.rest()+leaseMargin, maxLease)
}

// put (re)sets the override to expire ttl from now.
func (l *lease) put(ctx context.Context) error {
	ttl := l.ttl()
	var start time.Time
	var ov override
	err := whileThrottled(ctx, func() (err error) {
		start = time.Now()
		ov, err = l.c.putOverride(ctx, l.group, l.command, ttl)
		return err
	}, nil)
	if err != nil {
		return fmt.Errorf("switch the %s cooldown off in %s: %w", l.command, l.group, err)
	}
	l.command = ov.Command // the canonical name, when the text used an alias
	l.until = start.Add(ttl)
	return nil
}

// keep moves the expiry when it is under half the margin away, or more than a
// margin later than the run needs, until ctx ends.
func (l *lease) keep(ctx context.Context) {
	defer close(l.done)
	t := time.NewTicker(leaseCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		left, want := time.Until(l.until), l.ttl()
		if left > leaseMargin/2 && left < want+leaseMargin {
			continue
		}
		if err := l.put(ctx); err != nil && ctx.Err() == nil {
			fmt.Fprintf(l.warn, "latency: warning: cannot extend the cooldown override (it ends %s): %v\n", l.until.Format(time.TimeOnly), err)
		}
	}
}

// release stops keeping the override and deletes it with a fresh, short
// deadline, because ctx may already be cancelled (Ctrl-C). A refusal that
// may pass in a moment (429 from a rate limit, 503) is retried until then.
func (l *lease) release(ctx context.Context) error {
	l.stopKeeping()
	<-l.done
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), restoreTimeout)
	defer cancel()
	wait := 50 * time.Millisecond
	for {
		err := l.c.deleteOverride(rctx, l.group, l.command)
		if err == nil {
			return nil
		}
		if st := statusOf(err); st == 429 || st == 503 {
			select {
			case <-rctx.Done():
			case <-time.After(wait):
				wait = min(2*wait, time.Second)
				continue
			}
		}
		return fmt.Errorf("put the %s cooldown back in %s (it comes back by itself at %s): %w",
			l.command, l.group, l.until.Format(time.TimeOnly), err)
	}
}
