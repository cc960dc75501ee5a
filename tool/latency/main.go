// Command latency proves the bot's own share of reply latency: it sends a
// command through the bot's /_selftest in a test group, with the command's
// cooldown switched off there for the run, and holds own_ms at p95 to a
// budget (OWN_BUDGET_MS, 100 ms by default). round_trip_ms, bounded by
// signal-cli-rest-api, is reported and never budgeted.
//
//	go run ./tool/latency testbot
//	go run ./tool/latency testbot --text '!ja' --times 50
//	go run ./tool/latency testbot --rate 200 --duration 30s --json
//
// Exit status: 0 when own_ms p95 is within the budget, 1 when over it (or no
// reply came back), 2 for usage or connection errors, 130 when interrupted.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
