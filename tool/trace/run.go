package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"signal-bot/pkg/telemetry"
)

// searchLimit bounds how many frames one --slowest or --last search reads.
const searchLimit = 1000

// run parses args and prints the traces they ask for to out.
func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	o, err := parseArgs(args, getenv, out)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	j := jaeger{base: o.jaeger, hc: &http.Client{}}
	defer j.hc.CloseIdleConnections()
	if o.traceID != "" {
		spans, err := awaitTrace(ctx, j, o.traceID, o.wait)
		if err != nil {
			return err
		}
		return render(out, spans, o.width)
	}
	return search(ctx, j, o, out)
}

// awaitTrace fetches a trace, and fetches it again while it is incomplete or
// still growing, for up to wait: spans reach Jaeger in batches.
func awaitTrace(ctx context.Context, j jaeger, id string, wait time.Duration) ([]span, error) {
	deadline := time.Now().Add(wait)
	var last []span
	for {
		spans, err := j.trace(ctx, id)
		switch {
		case err != nil && !errors.Is(err, errNotFound):
			return nil, err
		case err == nil && complete(spans) && len(spans) == len(last):
			return spans, nil
		}
		if time.Now().After(deadline) {
			if errors.Is(err, errNotFound) {
				return nil, fmt.Errorf("trace %s: not in Jaeger at %s (a Jaeger that keeps traces in memory forgets them when it restarts: JAEGER_DATA=<dir> otel/jaeger.sh start keeps them; or the trace is past the store's retention, or the bot exports no spans, or sampled this one out)", id, j.base)
			}
			return spans, nil // print what there is; render marks the gaps
		}
		last = spans
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// found is a frame trace from a search, with its block.
type found struct {
	spans []span
	block telemetry.Block
	start time.Time
}

// search prints the slowest frame of the last --slowest, or the --last N.
func search(ctx context.Context, j jaeger, o options, out io.Writer) error {
	since := o.slowest
	if o.last > 0 {
		since = 24 * time.Hour // Jaeger's in-memory store rarely holds more
	}
	now := time.Now()
	traces, err := j.frames(ctx, o.service, now.Add(-since), now.Add(time.Minute), searchLimit)
	if err != nil && !errors.Is(err, errNotFound) {
		return err
	}
	var fs []found
	for _, spans := range traces {
		if b, ok := block(spans); ok && complete(spans) {
			fs = append(fs, found{spans: spans, block: b, start: rootStart(spans)})
		}
	}
	if len(fs) == 0 {
		return fmt.Errorf("no complete frame trace of service %q in Jaeger at %s in the last %s", o.service, j.base, since)
	}
	if o.last > 0 {
		slices.SortFunc(fs, func(a, b found) int { return b.start.Compare(a.start) })
		fs = fs[:min(o.last, len(fs))]
	} else {
		key := func(f found) float64 { return f.block.RoundTripMS }
		if o.by == "own" {
			key = func(f found) float64 { return f.block.OwnMS }
		}
		slices.SortFunc(fs, func(a, b found) int { return cmp.Compare(key(b), key(a)) })
		fmt.Fprintf(out, "slowest by %s_ms of %d frames since %s:\n", o.by, len(fs), now.Add(-since).UTC().Format(time.TimeOnly))
		fs = fs[:1]
	}
	for i, f := range fs {
		if i > 0 {
			fmt.Fprintln(out)
		}
		if err := render(out, f.spans, o.width); err != nil {
			return err
		}
	}
	return nil
}

// rootStart is the start of the trace's root frame span.
func rootStart(spans []span) time.Time {
	for _, s := range spans {
		if s.ParentID == "" && s.Name == telemetry.SpanFrame {
			return s.Start
		}
	}
	return time.Time{}
}
