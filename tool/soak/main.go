// Command soak runs signal-bot against the simulated REST API at a fixed
// rate for a fixed time and reports what went in and what came out: frames
// in, replies out, frames lost, replies duplicated, the bot's peak RSS and
// goroutines, and own_ms at p95.
//
//	go run ./tool/soak                          # 100 frames/s for 10 minutes
//	go run ./tool/soak --rate 50 --duration 30s --json
//	go run ./tool/soak --burst 5000 --senders 100 --limit 32   # the loopback limit
//
// --burst is the loopback-limit yardstick (docs/throughput.md): in one run,
// against the same simulator, a trivial client POSTs /v2/send --burst times
// from --workers goroutines, then the bot answers a burst of as many !pomoc;
// each of --rounds rounds prints both rates and their ratio.
//
// The simulator (lossless, zero latency) and the fake picture upstreams run
// in this process; the bot runs as a child process, built from
// ./cmd/signal-bot (or --bot), so its RSS and goroutines are its own. The
// bot adds nothing for the soak: RSS comes from /proc/<pid>/status, the
// goroutines from the Go runtime's scheduler trace (GODEBUG=schedtrace), and
// own_ms from its "served" log lines. Everything listens on loopback.
//
// Exit status: 0 when no frame was lost or answered twice and the bot exited
// cleanly on SIGTERM, 1 otherwise, 2 for usage errors, 130 when interrupted.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
