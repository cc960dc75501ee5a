package main

import (
	"context"
	"sync"
	"time"
)

const (
	// replyGuess is the time of one reply assumed before the first has come
	// back; it only sets the override's first expiry, which the lease adapts.
	replyGuess = time.Second
	// maxGuessedRest caps the rest estimated from replyGuess, so a tool killed
	// before its first reply leaves the cooldown off for minutes, not an hour.
	maxGuessedRest = time.Minute
)

// closedLoop sends o.times requests one at a time, each after the previous
// reply (and, with a pacer, once the chat's send budget has room for it), so
// the bot never has more than one: a closed loop builds no queue.
// A request the bot's rate limit refuses is sent again after a pause, so the
// loop runs at most as fast as the bot allows; the refusals are counted.
func closedLoop(ctx context.Context, c *client, o options, res *results, p *pacer) {
	res.startNow()
	for i := range o.times {
		if ctx.Err() != nil {
			return
		}
		if p != nil {
			if _, err := p.take(ctx); err != nil {
				return
			}
		}
		res.begin()
		var t timing
		var start time.Time
		err := whileThrottled(ctx, func() (err error) {
			start = time.Now()
			t, err = send(ctx, c, o, i)
			return err
		}, res.throttle)
		res.add(t, time.Since(start), err)
	}
}

// openLoop sends o.rate requests per second for o.duration on a fixed
// schedule without waiting for replies. Each reply is timed from its intended
// send time, so a late sender cannot hide a slow bot. At most o.inflight
// requests are out at once; one due while that many are out is skipped and
// counted, never queued in the tool. A refusal by the bot's rate limit is a
// failure here (429): retrying would leave the schedule. A pacer holds a
// request past its time until the send budget has room; it is then timed
// from its release.
func openLoop(ctx context.Context, c *client, o options, res *results, p *pacer) {
	n := o.planned()
	sem := make(chan struct{}, o.inflight)
	var wg sync.WaitGroup
	defer wg.Wait()
	timer := time.NewTimer(0)
	defer timer.Stop()
	start := res.startNow()
	for i := range n {
		due := start.Add(time.Duration(float64(i) * float64(time.Second) / o.rate))
		if wait := time.Until(due); wait > 0 {
			timer.Reset(wait)
			select {
			case <-ctx.Done():
				return
			case <-timer.C:
			}
		}
		if ctx.Err() != nil {
			return
		}
		if p != nil {
			held, err := p.take(ctx)
			if err != nil {
				return
			}
			if held > 0 {
				due = time.Now() // held for the budget: timed from its release
			}
		}
		select {
		case sem <- struct{}{}:
		default:
			res.skip()
			continue
		}
		res.begin()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t, err := send(ctx, c, o, i)
			res.add(t, time.Since(due), err)
		}()
	}
}

// send makes request i to /_selftest within o.timeout, from synthetic
// sender i mod o.senders.
func send(ctx context.Context, c *client, o options, i int) (timing, error) {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	return c.selftest(ctx, o.group, o.text, i%max(o.senders, 1))
}

// restEstimate is the run's estimated remaining time, for the override's
// expiry: the requests left at the mean reply time (closed loop), or the rest
// of the schedule plus one reply (open loop).
func restEstimate(o options, res *results) func() time.Duration {
	return func() time.Duration {
		mean, measured := res.meanReply()
		if !measured {
			mean = replyGuess
		}
		var rest time.Duration
		if o.openLoop() {
			rest = max(0, time.Until(res.started().Add(o.duration))) + mean
		} else {
			rest = time.Duration(max(0, o.times-res.answered())) * mean
		}
		if !measured && !o.openLoop() {
			rest = min(rest, maxGuessedRest)
		}
		return rest
	}
}
