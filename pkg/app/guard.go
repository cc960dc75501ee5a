package app

import (
	"context"
	"fmt"
	"time"

	"signal-bot/pkg/backoff"
	"signal-bot/pkg/telemetry"
)

// The restarts of a background loop that panicked back off from
// guardBase to guardMax.
const (
	guardBase = time.Second
	guardMax  = time.Minute
)

// guard runs loop, the background loop name, until it returns or ctx ends;
// a panic in it is logged once with its stack, counted as
// signal_bot_panics_total{command="background:<name>"}, and the loop
// started again after a backoff (backoff.Guard).
func (a *App) guard(ctx context.Context, name string, loop func(context.Context)) {
	backoff.Guard(ctx, guardBase, guardMax, func(v any, stack []byte) {
		a.loopPanicked(name, v, stack)
	}, loop)
}

// loopPanicked logs and counts a panic recovered in the background loop name.
func (a *App) loopPanicked(name string, v any, stack []byte) {
	a.panicked(name)
	a.log.Error("panic in a background loop recovered; restarting it", "loop", name,
		"panic", telemetry.RedactText(fmt.Sprint(v)), "stack", string(stack))
}

// loop runs fn in a goroutine of its own under guard; the channel closes
// when fn has returned.
func (a *App) loop(ctx context.Context, name string, fn func(context.Context)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.guard(ctx, name, fn)
	}()
	return done
}
