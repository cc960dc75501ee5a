package bot

import (
	"context"
	"time"

	"signal-bot/pkg/outbound"
	"signal-bot/pkg/pipeline"
)

// prepay takes the place in the outbound budget of w's reply before its
// command runs, for a command whose reply carries pictures
// (commands.Command.Pictures): a reply the budget would shed is shed before
// it takes a pooled picture or fetches one, so a flood of !cat or 🔁 costs
// the upstreams only the pictures that are sent. It waits as awaitSend does
// and returns why the reply is shed, or "" with w.prepaid set.
func (b *Bot) prepay(ctx context.Context, s *pipeline.Slot, w *work) string {
	t, reason := b.awaitTicket(ctx, s, w.in.ReplyTo(), w.req.Command.Pictures, true)
	if reason == "" {
		w.prepaid = &t
	}
	return reason
}

// prepaidTurn is send's check of a prepaid reply: it may go at once, unless
// a 429 came while its command ran (then its ticket is given back and it is
// shed). A reply that carries fewer pictures than were paid for (the
// apology of a failed fetch) keeps its tokens: an upstream fault is rare, and
// the budget only errs on the safe side.
func (b *Bot) prepaidTurn(t *outbound.Ticket) string {
	if !b.d.Gate.PausedUntil(time.Now()).IsZero() {
		b.d.Gate.Cancel(*t)
		return outbound.ShedPaused
	}
	return ""
}
