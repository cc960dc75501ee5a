package app

import (
	"context"
	"time"

	"signal-bot/pkg/store"
)

// prune forgets the senders' records unused for STATE_FORGET_AFTER every
// store.PruneEvery until ctx ends (the state file's Open pruned them at
// start), and logs what it forgot.
func (a *App) prune(ctx context.Context) {
	t := time.NewTicker(store.PruneEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			n, err := a.store.Prune(now)
			switch {
			case err != nil:
				a.log.WarnContext(ctx, "state: unused records not pruned", "err", err)
			case n > 0:
				a.log.InfoContext(ctx, "state: records unused for STATE_FORGET_AFTER pruned", "records", n)
			}
		}
	}
}
