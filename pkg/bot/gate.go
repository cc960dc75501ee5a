package bot

import (
	"context"
	"time"

	"signal-bot/pkg/outbound"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/telemetry"
)

// ShedQuiet is the reason label of a refusal kept quiet.
const ShedQuiet = "quiet"

// shedCancelled is the reason of a reply whose frame ended while it waited to be sent.
const shedCancelled = "cancelled"

// awaitSend waits, without holding the task's slot s (Slot.WaitOutside), until the outbound
// gate lets a reply with attachments go to chat. It returns "" when the reply may be sent now, else why it is
// shed; a shed reply has taken nothing from the budget.
func (b *Bot) awaitSend(ctx context.Context, s *pipeline.Slot, chat string, attachments int) string {
	_, reason := b.awaitTicket(ctx, s, chat, attachments, true)
	return reason
}

// turn is send's wait for w's reply's turn to go to chat: a prepaid reply has
// its place already; an admin's answer waits for the budget but not for the
// pause after a 429 (w.pastPause: the console is the way out of the pause,
// !bot captcha and !bot status); any other waits as awaitSend does. It
// returns why the reply is shed, or "".
func (b *Bot) turn(ctx context.Context, s *pipeline.Slot, w *work, chat string, attachments int) string {
	if w.prepaid != nil {
		return b.prepaidTurn(w.prepaid)
	}
	_, reason := b.awaitTicket(ctx, s, chat, attachments, !w.pastPause)
	return reason
}

// awaitTicket is awaitSend that also returns the ticket taken, for a reply
// that takes its place in the budget before its command runs (prepaid.go);
// held false lets the reply past the pause after a 429.
func (b *Bot) awaitTicket(ctx context.Context, s *pipeline.Slot, chat string, attachments int, held bool) (outbound.Ticket, string) {
	var t outbound.Ticket
	var reason string
	if held {
		t, reason = b.d.Gate.Reserve(chat, attachments, time.Now())
	} else {
		t, reason = b.d.Gate.ReserveUnpaused(chat, attachments, time.Now())
	}
	if reason != "" {
		return t, reason
	}
	if d := time.Until(t.At); d > 0 {
		ctx, span := b.tracer.Start(ctx, telemetry.SpanSendWait)
		err := s.WaitOutside(ctx, func() error {
			timer := time.NewTimer(d)
			defer timer.Stop()
			select {
			case <-timer.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		span.End()
		if err != nil {
			b.d.Gate.Cancel(t)
			return t, shedCancelled
		}
	}
	if held && !b.d.Gate.PausedUntil(time.Now()).IsZero() { // a 429 came while this reply waited
		b.d.Gate.Cancel(t)
		return t, outbound.ShedPaused
	}
	return t, ""
}

// shed counts a reply that is not sent, and logs it once per chat per minute.
func (b *Bot) shed(ctx context.Context, w *work, reason string) {
	b.d.Recorder.ReplyShed(reason)
	if logNow, since := b.d.Gate.NoteShed(w.in.ReplyTo(), time.Now()); logNow {
		b.d.Log.WarnContext(ctx, "reply shed: over the outbound budget or paused after a rate limit",
			"reason", reason, "command", w.name, "chat", telemetry.ChatKind(w.in.GroupID), "alias", b.d.Groups.Alias(w.in.GroupID), "shed_in_chat_since_last_line", since)
	}
}
