package bot

import (
	"context"
	"errors"
	"time"

	"signal-bot/pkg/journal"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
)

// replayPoll is how often Replay looks for room in a full queue.
const replayPoll = 5 * time.Millisecond

// replayed are Replay's counts, for its closing line.
type replayed struct{ replayed, old, poison, refused int }

// Replay runs again, through the intake and in arrival order, the frames the
// last process accepted and did not finish (journal.Left.Frames); those
// older than maxAge (REPLAY_MAX_AGE) are dropped, logged and counted, and so
// are those replayed REPLAY_MAX_ATTEMPTS times already (poison: each replay
// ended the process before the frame's outcome was final). Each frame's
// attempt is on disk before any of them runs (journal.Attempt, Sync), so a
// replay the process dies in counts. Call it before anything new is
// received, so a replayed frame keeps its place before the same sender's
// later frames. A queue too small for them all makes it wait for room, not
// drop; a frame the scheduler refuses for its sender's queue or QUEUE_BYTES
// (settings lowered since, say) is a drop, counted by the scheduler, and
// leaves the journal.
func (in *Intake) Replay(ctx context.Context, left []journal.Entry, maxAge time.Duration) {
	if len(left) == 0 || in.journal == nil {
		return
	}
	var n replayed
	run := in.attempts(left, maxAge, &n)
	if err := in.journal.Sync(ctx); err != nil {
		in.log.Warn("replay attempts not on disk: a crash in a replay now does not count", "err", err)
	}
	for _, e := range run {
		switch err := in.replay(ctx, e); {
		case err == nil:
			in.journal.Replayed()
			n.replayed++
		case errors.Is(err, pipeline.ErrSender), errors.Is(err, pipeline.ErrBytes),
			errors.Is(err, signalapi.ErrNotReceive), errors.Is(err, signalapi.ErrBadLine):
			in.journal.Refused(e.ID)
			n.refused++
			in.log.Warn("journaled frame refused at intake on replay; dropped", "err", err)
		case ctx.Err() != nil:
			return
		default:
			in.log.Warn("journaled frame not replayed; kept for the next start", "err", err)
		}
	}
	in.log.Info("journal replayed", "replayed", n.replayed, "dropped_old", n.old, "poison", n.poison, "refused", n.refused)
}

// attempts drops the entries of left too old to replay or replayed too
// often already, each logged without identity (its kind, size and age), and
// records one more attempt in each of the others, which it returns.
func (in *Intake) attempts(left []journal.Entry, maxAge time.Duration, n *replayed) []journal.Entry {
	now := time.Now()
	var run []journal.Entry
	for _, e := range left {
		age := now.Sub(e.ReadAt)
		if age > maxAge {
			in.journal.DropOld(e.ID)
			n.old++
			in.log.Warn("journaled frame too old to replay; dropped", "age", age.Round(time.Millisecond), "replay_max_age", maxAge)
			continue
		}
		e, ok := in.journal.Attempt(e)
		if !ok {
			n.poison++
			in.log.Error("poison frame: replayed and never finished, the process died each time; dropped",
				"via", entryVia(e).String(), "bytes", len(e.Raw), "age", age.Round(time.Millisecond), "attempts", e.Attempts)
			continue
		}
		run = append(run, e)
	}
	return run
}

// entryVia is the receiver e came through.
func entryVia(e journal.Entry) signalapi.Via {
	switch {
	case e.Line:
		return signalapi.ViaWebhook
	case e.Synthetic:
		return signalapi.ViaSelftest
	}
	return signalapi.ViaWebsocket
}

// replay decodes e as its receiver gave it and pushes it, waiting for room
// in a full queue: a push to a full one would count a drop (and end a trace
// as dropped) at every retry. Nothing else offers yet, so the room stays
// until the push.
func (in *Intake) replay(ctx context.Context, e journal.Entry) error {
	key, m, err := in.bot.decode(e.Raw, entryVia(e))
	if err != nil {
		return err
	}
	if m != nil {
		m.replayed = true
	}
	for {
		if ps := in.pipe.Stats(); ps.Depth < ps.Capacity {
			_, err := in.push(key, m, e, true)
			if !errors.Is(err, pipeline.ErrFull) {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(replayPoll):
		}
	}
}
