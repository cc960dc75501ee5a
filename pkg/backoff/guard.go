package backoff

import (
	"context"
	"math/rand/v2"
	"runtime/debug"
	"time"
)

// Guard runs loop, a long-lived background loop, until it returns or ctx
// ends. A panic in loop is recovered and handed to report with its stack,
// and loop starts again after Delay(n, base, max, jitter), n the panics so
// far, so a loop that panics at once neither dies silently nor spins.
func Guard(ctx context.Context, base, max time.Duration, report func(v any, stack []byte), loop func(context.Context)) {
	for n := 0; ; n++ {
		if !runOnce(ctx, report, loop) || ctx.Err() != nil {
			return
		}
		t := time.NewTimer(Delay(n, base, max, rand.Float64()))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// runOnce runs loop and reports whether it panicked.
func runOnce(ctx context.Context, report func(v any, stack []byte), loop func(context.Context)) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			report(r, debug.Stack())
			panicked = true
		}
	}()
	loop(ctx)
	return false
}
