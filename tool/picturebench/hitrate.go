package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// openLoop delivers one !cat every interval for d, each from a different
// user of the test group (one sender's commands take turns, so a single
// sender could not keep the rate), through the simulator's websocket like a
// real message, and prints how many were served from the pool.
func openLoop(ctx context.Context, w io.Writer, s *stack, log *servedLog, interval, d time.Duration) error {
	log.take()
	searches := s.up.Requests(fakeup.TargetCatSearch)
	n := int(d / interval)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for i := range n {
		_, err := s.sim.Deliver(sim.Message{From: fmt.Sprintf("+48500100%03d", i), Name: "Bench", Group: "testbot", Text: "!cat"})
		if err != nil {
			return fmt.Errorf("deliver !cat %d: %w", i, err)
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for i := 0; log.count() < n; i++ {
		if i > 600 {
			return fmt.Errorf("%d of %d frames served within 60 s after the last", log.count(), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	got := log.take()
	hits := 0
	var rt []float64
	for _, x := range got {
		if x.upstreamMS == 0 {
			hits++
		}
		rt = append(rt, x.roundTripMS)
	}
	fmt.Fprintf(w, "%d !cat in %s at one per %s, %s: %d hits, %d misses, hit rate %.0f%%; round_trip_ms p50 %.1f, p90 %.1f; Cat API searches %d (refills and misses)\n",
		n, d, interval, s.name, hits, len(got)-hits, 100*float64(hits)/float64(len(got)),
		percentile(rt, 50), percentile(rt, 90), s.up.Requests(fakeup.TargetCatSearch)-searches)
	return nil
}
