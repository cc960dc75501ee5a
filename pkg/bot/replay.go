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

// Replay runs again, through the intake and in arrival order, the frames the
// last process accepted and did not finish (journal.Left.Frames); those
// older than maxAge (REPLAY_MAX_AGE) are dropped, logged and counted. Call
// it before anything new is received, so a replayed frame keeps its place
// before the same sender's later frames. A queue too small for them all
// makes it wait for room, not drop; a frame the scheduler refuses for its
// sender's queue or QUEUE_BYTES (settings lowered since, say) is a drop,
// counted by the scheduler, and leaves the journal.
func (in *Intake) Replay(ctx context.Context, left []journal.Entry, maxAge time.Duration) {
	if len(left) == 0 || in.journal == nil {
		return
	}
	now := time.Now()
	replayed, old, refused := 0, 0, 0
	for _, e := range left {
		if age := now.Sub(e.ReadAt); age > maxAge {
			in.journal.DropOld(e.ID)
			old++
			in.log.Warn("journaled frame too old to replay; dropped", "age", age.Round(time.Millisecond), "replay_max_age", maxAge)
			continue
		}
		switch err := in.replay(ctx, e); {
		case err == nil:
			in.journal.Replayed()
			replayed++
		case errors.Is(err, pipeline.ErrSender), errors.Is(err, pipeline.ErrBytes),
			errors.Is(err, signalapi.ErrNotReceive), errors.Is(err, signalapi.ErrBadLine), errors.Is(err, signalapi.ErrDeclined):
			in.journal.Refused(e.ID)
			refused++
			in.log.Warn("journaled frame refused at intake on replay; dropped", "err", err)
		case ctx.Err() != nil:
			return
		default:
			in.log.Warn("journaled frame not replayed; kept for the next start", "err", err)
		}
	}
	in.log.Info("journal replayed", "replayed", replayed, "dropped_old", old, "refused", refused)
}

// replay decodes e as its receiver gave it and pushes it, waiting for room
// in a full queue: a push to a full one would count a drop (and end a trace
// as dropped) at every retry. Nothing else offers yet, so the room stays
// until the push.
func (in *Intake) replay(ctx context.Context, e journal.Entry) error {
	via := signalapi.ViaWebsocket
	switch {
	case e.Line:
		via = signalapi.ViaWebhook
	case e.Synthetic:
		via = signalapi.ViaSelftest
	}
	key, m, err := in.bot.decode(e.Raw, via)
	if err != nil {
		return err
	}
	if reason := refuse(e.Raw, m); reason != "" {
		return in.refused(ctx, reason, e.Raw, m, via)
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
