package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
)

// Exit statuses.
const (
	exitPass        = 0
	exitOverBudget  = 1
	exitUsage       = 2 // also connection errors: bot unreachable, unknown group, token
	exitInterrupted = 130
)

// run is the whole tool: parse, switch the cooldown off, send, put the
// cooldown back, report. getenv reads the environment.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, getenv, stderr)
	switch {
	case errors.Is(err, errHelp):
		return exitPass
	case err != nil:
		fmt.Fprintf(stderr, "latency: %v (see --help)\n", err)
		return exitUsage
	}
	c := newClient(o.url, o.token, o.inflight)
	defer c.close()

	res := newResults()
	l, err := takeLease(ctx, c, o.group, o.command, restEstimate(o, res), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "latency: %s\n", leaseFailure(o, err))
		return exitUsage
	}
	p, pace := startPacing(ctx, c, o, stderr)
	measure(ctx, c, o, res, p, isTerminal(stdout) && !o.json, stdout)
	interrupted := ctx.Err() != nil
	if err := l.release(ctx); err != nil {
		fmt.Fprintf(stderr, "latency: warning: %v\n", err)
	}

	snap := res.snapshot()
	r := newReport(o, snap, interrupted)
	held, waited := p.holds()
	pace.Held, pace.HeldS = held, waited.Seconds()
	r.Pace = pace
	write := writeText
	if o.json {
		write = writeJSON
	}
	if err := write(stdout, r); err != nil {
		fmt.Fprintf(stderr, "latency: %v\n", err)
		return exitUsage
	}
	switch {
	case interrupted:
		fmt.Fprintln(stderr, "latency: interrupted; the report covers the replies so far")
		return exitInterrupted
	case snap.unreachable():
		fmt.Fprintf(stderr, "latency: bot at %s stopped answering: %s\n", o.url, snap.failures[0].Example)
		return exitUsage
	case !r.Budget.Pass:
		return exitOverBudget
	}
	return exitPass
}

// measure runs the closed or open loop, with a progress line when asked.
func measure(ctx context.Context, c *client, o options, res *results, p *pacer, progress bool, w io.Writer) {
	if progress {
		pctx, stop := context.WithCancel(ctx)
		wait := showProgress(pctx, w, o, res)
		defer wait()
		defer stop()
	}
	if o.openLoop() {
		openLoop(ctx, c, o, res, p)
	} else {
		closedLoop(ctx, c, o, res, p)
	}
}

// leaseFailure is the one-line reason a run could not start.
func leaseFailure(o options, err error) string {
	switch statusOf(err) {
	case 0:
		var op *net.OpError
		if errors.As(err, &op) {
			return fmt.Sprintf("bot unreachable at %s: %v", o.url, op)
		}
		return fmt.Sprintf("bot unreachable at %s: %v", o.url, err)
	case 404:
		return fmt.Sprintf("no test group %q at %s (see the bot's SIGNAL_GROUPS and TEST_GROUPS)", o.group, o.url)
	case 401, 403:
		var se *statusError
		if errors.As(err, &se) && strings.Contains(se.msg, "needs SELFTEST_TOKEN") {
			return fmt.Sprintf("the bot at %s serves /_override only with SELFTEST_TOKEN: set one on the bot and the same here (openssl rand -hex 32)", o.url)
		}
		return fmt.Sprintf("the bot at %s refused the token (set SELFTEST_TOKEN to the bot's): %v", o.url, err)
	}
	return err.Error()
}
