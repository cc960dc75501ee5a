package app

import (
	"context"
	"errors"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/pipeline"
)

// replay runs again, through the normal path and in arrival order, the
// frames the last process accepted and did not finish; those older than
// REPLAY_MAX_AGE are dropped, logged and counted. It runs before anything
// new is received, so a replayed frame keeps its place before the same
// sender's later frames. A FIFO too small for them all makes it wait for
// room, not drop; a frame the intake refuses for its sender's queue or
// QUEUE_BYTES (settings lowered since, say) is a drop, counted by the
// pipeline, and leaves the journal.
func (a *App) replay(ctx context.Context, left []journal.Entry) {
	if len(left) == 0 {
		return
	}
	now := time.Now()
	replayed, old, refused := 0, 0, 0
	for _, e := range left {
		if age := now.Sub(e.ReadAt); age > a.cfg.Journal.ReplayMaxAge {
			a.journal.DropOld(e.ID)
			old++
			a.log.Warn("journaled frame too old to replay; dropped", "age", age.Round(time.Millisecond), "replay_max_age", a.cfg.Journal.ReplayMaxAge)
			continue
		}
		for {
			// Room in the FIFO first: an offer to a full one would count a
			// drop (and end a trace as dropped) at every retry. Nothing else
			// offers yet, so the room stays until the offer.
			if ps := a.pipe.Stats(); ps.Depth >= ps.Capacity {
				select {
				case <-ctx.Done():
					return
				case <-time.After(drainPoll):
				}
				continue
			}
			_, err := a.pipe.Replay(e.Raw, e.ReadAt, e.Synthetic, e.ID)
			if err == nil {
				a.journal.Replayed()
				replayed++
				break
			}
			if errors.Is(err, pipeline.ErrSender) || errors.Is(err, pipeline.ErrBytes) {
				a.journal.Refused(e.ID)
				refused++
				a.log.Warn("journaled frame refused at intake on replay; dropped", "err", err)
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
	a.log.Info("journal replayed", "replayed", replayed, "dropped_old", old, "refused", refused)
}

// journalAdd journals a frame the pipeline accepted, with its duplicate
// filter key if it is a command: the pipeline's Accepted.
func (a *App) journalAdd(raw []byte, readAt time.Time, synthetic bool, _ string, msg any) uint64 {
	var seen journal.Seen
	m, _ := msg.(*bot.Message)
	if k, ok := bot.DedupKey(m); ok {
		seen = journal.Seen{Sender: k.Sender, Timestamp: k.Timestamp}
	}
	return a.journal.Add(raw, readAt, synthetic, seen)
}

// recentlySeen are the journal's duplicate filter records done after since,
// oldest first, for the bot's filter.
func recentlySeen(done []journal.Done, since time.Time) []bot.Seen {
	var out []bot.Seen
	for _, d := range done {
		if d.At.After(since) {
			out = append(out, bot.Seen{Sender: d.Sender, Timestamp: d.Timestamp})
		}
	}
	return out
}
