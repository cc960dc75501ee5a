package bot

import (
	"context"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// Reactor sends a reaction; *signalapi.Client is one.
type Reactor interface {
	React(ctx context.Context, recipient, emoji, targetAuthor string, targetTimestamp int64) error
}

// reactTarget is the message a reaction of the bot goes on: the one that
// asked, or, for a 🔁, the bot's picture it was on (a reaction cannot be
// reacted to).
func (b *Bot) reactTarget(w *work) (author string, ts int64) {
	if w.repeat != 0 {
		return b.self.number, w.repeat
	}
	q := w.in.Quote() // its author as a quote names it: the uuid, else the number
	return q.Author, q.Timestamp
}

// react sends w's reaction instead of a reply, inside the outbound budget
// like any send (Signal counts a reaction as a message), and returns the
// frame's outcome.
func (b *Bot) react(ctx context.Context, s *pipeline.Slot, span trace.Span, w *work) string {
	to := w.in.ReplyTo()
	if reason := b.awaitSend(ctx, s, to, 0); reason != "" {
		b.shed(ctx, w, reason)
		return telemetry.OutcomeShed
	}
	author, ts := b.reactTarget(w)
	if err := b.d.Reactor.React(ctx, to, w.react, author, ts); err != nil {
		markFailed(span, err)
		b.d.Recorder.SendFailed(err)
		b.d.Log.WarnContext(ctx, "reaction not sent", "command", w.name, "err", telemetry.RedactErr(err))
		return telemetry.OutcomeError
	}
	b.d.Gate.Sent()
	return w.outcome
}

// send sends reply, w's answer, once the outbound budget lets it go, hands
// the REST API's answer to the account's standing (Deps.Account), and
// remembers a picture by the timestamp the REST API answered, for a 🔁 on
// it. It returns the frame's outcome, outcome when the send went.
func (b *Bot) send(ctx context.Context, s *pipeline.Slot, span trace.Span, w *work, reply commands.Reply, outcome string) string {
	out := signalapi.Outgoing{Recipient: w.in.ReplyTo(), Text: reply.Text, NotifySelf: w.in.NoteToSelf}
	if w.repeat == 0 { // a 🔁 is a reaction: it has no text to quote
		out.Quote = quoteOf(b.d.QuoteReplies, w.in)
	}
	for _, p := range reply.Pictures {
		out.Attachments = append(out.Attachments, p.DataURI)
	}
	if reason := b.turn(ctx, s, w, out.Recipient, len(out.Attachments)); reason != "" {
		b.shed(ctx, w, reason)
		return telemetry.OutcomeShed
	}
	res, err := b.d.API.Send(ctx, out)
	now := b.d.Now()
	if err != nil {
		markFailed(span, err)
		b.d.Recorder.SendFailed(err)
		b.d.Account.Failed(ctx, w.name, out.Recipient, w.in.GroupID == "", err, now)
		return telemetry.OutcomeError
	}
	b.d.OwnSends.Remember(res.Timestamp) // its echo is never handled
	b.d.Account.Sent(ctx, w.name, out.Recipient, res, now)
	for _, p := range reply.Pictures {
		b.d.Log.InfoContext(ctx, "picture sent", "command", w.name, "mime", p.MIME, "bytes", p.Bytes, "width", p.Width, "height", p.Height)
	}
	if len(reply.Pictures) > 0 && res.Timestamp != 0 && b.d.Reactor != nil {
		b.pictures.add(res.Timestamp, pictureSend{command: w.name, chat: out.Recipient, at: now})
	}
	return outcome
}
