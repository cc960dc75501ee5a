package bot

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/telemetry"
)

// Typer shows and clears Signal's typing indicator; *signalapi.Client is one.
type Typer interface {
	Typing(ctx context.Context, recipient string, on bool) error
}

// TypingBudget says whether a chat's send budget can spare a typing
// indicator now: Signal counts typing messages like any other, and the
// indicator costs two (shown, cleared). The outbound send budget is meant to
// implement it; chat is the reply's recipient (the group, or the sender in a
// direct chat), as the send budget keys its chats.
type TypingBudget interface {
	SpareTyping(chat string, now time.Time) bool
}

// showTyping shows the typing indicator in w's chat, for a command that has
// one, as soon as the command is accepted. It runs beside the handler, which
// never waits for it: the returned function, called once the reply is sent
// (or given up), lets it clear the indicator. Its calls are spans of their
// own leg (LegTyping), so they count neither as send time nor in the round
// trip, and a failure is logged and ignored.
func (b *Bot) showTyping(ctx context.Context, w *work) (replied func()) {
	none := func() {}
	if b.d.Typing == nil || w.reply != nil || w.req.Command == nil || !w.req.Command.Typing {
		return none
	}
	to := w.in.ReplyTo()
	if b.d.TypingBudget != nil && !b.d.TypingBudget.SpareTyping(to, b.d.Now()) {
		b.d.Log.InfoContext(ctx, "typing indicator skipped: the chat's send budget is low", "command", w.name)
		return none
	}
	done := make(chan struct{})
	b.typing.Add(1)
	go func() {
		defer b.typing.Done()
		defer b.recoverBackground(ctx, "typing")
		// Not cancelled with the frame: the indicator is cleared after the
		// reply, when the frame's task may be over. Each call has its own
		// timeout (CALL_TIMEOUT).
		b.runTyping(context.WithoutCancel(ctx), to, done)
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// runTyping shows the indicator to recipient unless the reply went first,
// waits for the reply, then clears it in a trace of its own linked to the
// frame's: the frame's timing is over by then.
func (b *Bot) runTyping(ctx context.Context, recipient string, replied <-chan struct{}) {
	select {
	case <-replied:
		return // the reply was faster than the indicator: nothing to show
	default:
	}
	if err := b.d.Typing.Typing(ctx, recipient, true); err != nil {
		b.d.Log.WarnContext(ctx, "typing indicator not shown; ignored", "err", telemetry.RedactErr(err))
		return
	}
	<-replied
	sctx, span := b.tracer.Start(ctx, telemetry.SpanTypingStop, trace.WithNewRoot(), trace.WithLinks(trace.LinkFromContext(ctx)))
	defer span.End()
	if err := b.d.Typing.Typing(sctx, recipient, false); err != nil {
		markFailed(span, err)
		b.d.Log.WarnContext(ctx, "typing indicator not cleared; ignored (Signal clients drop it by themselves)", "err", telemetry.RedactErr(err))
	}
}

// WaitTyping waits until every typing indicator has been cleared (or given
// up), or ctx ends; at shutdown, after the last frame.
func (b *Bot) WaitTyping(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		b.typing.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}
