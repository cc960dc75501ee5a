package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"golang.org/x/term"

	"signal-bot/tool/latency/internal/stats"
)

// progressEvery is how often the progress line is redrawn.
const progressEvery = 200 * time.Millisecond

// isTerminal tells whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// showProgress redraws one line on w until ctx ends, then clears it. It
// returns a function that waits for the line to be cleared.
func showProgress(ctx context.Context, w io.Writer, o options, res *results) (wait func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				fmt.Fprint(w, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprintf(w, "\r\033[K%s", progressLine(o, res.snapshot()))
			}
		}
	}()
	return func() { <-done }
}

// progressLine is "37/50 ok 36 failed 1  own_ms p95 0.412  3.1s".
func progressLine(o options, s snapshot) string {
	own := make([]float64, len(s.ok))
	for i, t := range s.ok {
		own[i] = t.OwnMS
	}
	slices.Sort(own)
	p95 := "-"
	if len(own) > 0 {
		p95 = fmt.Sprintf("%.3f", stats.Percentile(own, 95))
	}
	return fmt.Sprintf("%d/%d ok %d failed %d  own_ms p95 %s  %s",
		s.sent, o.planned(), len(s.ok), s.nFailed, p95, s.elapsed.Round(100*time.Millisecond))
}
