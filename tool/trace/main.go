// Command trace prints a signal-bot trace as a waterfall in the terminal, from
// Jaeger's query API, for a machine without Jaeger's web UI (the Jaeger that
// otel/jaeger.sh builds has none): each span as a bar on one time axis with
// its offset and duration, and under it the timing block, computed from the
// span times Jaeger stored with the bot's own formula (telemetry.Compute).
// A service that joined the trace (a hook of COMMANDS_FILE that exports to
// the same Jaeger) shows under the upstream leg that called it, its service
// in parentheses; its spans are not the bot's and leave the block alone.
//
//	go run ./tool/trace 4d8706e07d3a2e24f5213a58f62ce0ce
//	go run ./tool/trace --slowest 10m             # the slowest frame of the last 10 minutes
//	go run ./tool/trace --slowest 1h --by own     # ... by own_ms instead of round_trip_ms
//	go run ./tool/trace --last 3                  # the 3 most recent frames
//
// JAEGER_URL (default http://127.0.0.1:16686) is Jaeger's query address,
// OTEL_SERVICE_NAME (default signal-bot) the service to search. Exit status:
// 0 on success, 1 when nothing was found or Jaeger failed, 2 for usage.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "trace:", err)
		if errors.As(err, new(usageError)) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}
