package app

import (
	"context"
	"errors"
	"time"

	"signal-bot/pkg/journal"
	"signal-bot/pkg/pipeline"
)

// replay runs again, through the normal path and in arrival order, the
// frames the last process accepted and did not finish; those older than
// REPLAY_MAX_AGE are dropped, logged and counted. It runs before anything
// new is received, so a replayed frame keeps its place before the same
// sender's later frames. A FIFO too small for them all makes it wait for
// room, not drop.
func (a *App) replay(ctx context.Context, left []journal.Entry) {
	if len(left) == 0 {
		return
	}
	now := time.Now()
	replayed, old := 0, 0
	for _, e := range left {
		if age := now.Sub(e.ReadAt); age > a.cfg.Journal.ReplayMaxAge {
			a.journal.DropOld(e.ID)
			old++
			a.log.Warn("journaled frame too old to replay; dropped", "age", age.Round(time.Millisecond), "replay_max_age", a.cfg.Journal.ReplayMaxAge)
			continue
		}
		for {
			_, err := a.pipe.Replay(e.Raw, e.ReadAt, e.Synthetic, e.ID)
			if err == nil {
				a.journal.Replayed()
				replayed++
				break
			}
			if !errors.Is(err, pipeline.ErrFull) {
				a.log.Warn("journaled frame not replayed; kept for the next start", "err", err)
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(drainPoll):
			}
		}
	}
	a.log.Info("journal replayed", "replayed", replayed, "dropped_old", old)
}
