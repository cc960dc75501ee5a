package main

import (
	"context"
	"fmt"
	"time"

	"signal-bot/pkg/sim"
)

// sender is the number of sender i.
func sender(i int) string { return fmt.Sprintf("+4876%07d", i) }

// load sends o.frames() frames on a fixed schedule, one every 1/rate
// seconds, from the senders in turn: direct messages, so that each reply's
// recipient names the sender it answers. It returns the frames per sender
// and how far behind its schedule it fell at most. It stops early when ctx
// ends.
func load(ctx context.Context, s *sim.Sim, o options, tick func(sent int)) (map[string]int, time.Duration, error) {
	perSender := make(map[string]int, o.senders)
	interval := time.Second / time.Duration(o.rate)
	start := time.Now()
	var lag time.Duration
	t := time.NewTimer(0)
	defer t.Stop()
	for i := range o.frames() {
		due := start.Add(time.Duration(i) * interval)
		if wait := time.Until(due); wait > 0 {
			t.Reset(wait)
			select {
			case <-ctx.Done():
				return perSender, lag, ctx.Err()
			case <-t.C:
			}
		} else {
			lag = max(lag, -wait)
		}
		from, text := sender(i%o.senders), "!pomoc"
		if i%10 == 9 {
			text = "!ja"
		}
		if _, err := s.Deliver(sim.Message{From: from, Name: "Soak", Text: text}); err != nil {
			return perSender, lag, fmt.Errorf("deliver frame %d: %w", i, err)
		}
		perSender[from]++
		tick(i + 1)
	}
	return perSender, lag, nil
}
