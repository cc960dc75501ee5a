package main

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"text/tabwriter"
	"time"

	"signal-bot/pkg/telemetry"
)

// loopResult is what a closed loop of !cat selftests measured on one stack.
type loopResult struct {
	blocks   []telemetry.Block
	uploaded []float64 // bytes of each picture the simulator received
	err      error
}

// closedLoops runs n !cat selftests one after another on each stack, the
// stacks side by side at the same time.
func closedLoops(stacks []*stack, n int) []loopResult {
	out := make([]loopResult, len(stacks))
	var wg sync.WaitGroup
	for i, s := range stacks {
		wg.Go(func() { out[i] = closedLoop(s, n) })
	}
	wg.Wait()
	return out
}

func closedLoop(s *stack, n int) loopResult {
	hc := &http.Client{Timeout: 40 * time.Second} // the bot answers 504 after SELFTEST_TIMEOUT (30 s)
	var r loopResult
	s.sim.ClearSent()
	for range n {
		b, err := selftest(hc, s.url(), "!cat")
		if err != nil {
			r.err = fmt.Errorf("%s: %w", s.name, err)
			return r
		}
		r.blocks = append(r.blocks, b)
	}
	for _, sent := range s.sim.Sent() {
		for _, a := range sent.Attachments {
			r.uploaded = append(r.uploaded, float64(a.Size))
		}
	}
	return r
}

// printLoops prints one column per stack: percentiles of the timing block,
// the bytes uploaded per picture and the frames served without upstream time.
func printLoops(w io.Writer, stacks []*stack, res []loopResult) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "\t")
	for _, s := range stacks {
		fmt.Fprintf(tw, "%s\t", s.name)
	}
	fmt.Fprintln(tw)
	field := func(name string, get func(telemetry.Block) float64, p float64) {
		fmt.Fprintf(tw, "%s p%.0f\t", name, p)
		for _, r := range res {
			xs := make([]float64, len(r.blocks))
			for i, b := range r.blocks {
				xs[i] = get(b)
			}
			fmt.Fprintf(tw, "%.1f\t", percentile(xs, p))
		}
		fmt.Fprintln(tw)
	}
	field("round_trip_ms", func(b telemetry.Block) float64 { return b.RoundTripMS }, 50)
	field("round_trip_ms", func(b telemetry.Block) float64 { return b.RoundTripMS }, 90)
	field("send_ms", func(b telemetry.Block) float64 { return b.SendMS }, 50)
	field("upstream_ms", func(b telemetry.Block) float64 { return b.UpstreamMS }, 50)
	field("own_ms", func(b telemetry.Block) float64 { return b.OwnMS }, 50)
	field("own_ms", func(b telemetry.Block) float64 { return b.OwnMS }, 95)
	fmt.Fprint(tw, "bytes uploaded per picture, mean\t")
	for _, r := range res {
		fmt.Fprintf(tw, "%.0f\t", mean(r.uploaded))
	}
	fmt.Fprintln(tw)
	fmt.Fprint(tw, "frames with upstream_ms = 0\t")
	for _, r := range res {
		fmt.Fprintf(tw, "%d/%d\t", countHits(r.blocks), len(r.blocks))
	}
	fmt.Fprintln(tw)
	return tw.Flush()
}

func countHits(bs []telemetry.Block) int {
	n := 0
	for _, b := range bs {
		if b.UpstreamMS == 0 {
			n++
		}
	}
	return n
}
