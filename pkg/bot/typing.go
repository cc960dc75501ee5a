package bot

import (
	"context"
	"log/slog"
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
// indicator costs two (shown, cleared), each refresh one more. The outbound
// send budget is meant to implement it; chat is the reply's recipient (the
// group, or the sender in a direct chat), as the send budget keys its chats.
type TypingBudget interface {
	SpareTyping(chat string, now time.Time) bool
	SpareTypingRefresh(chat string, now time.Time) bool
}

// newTicker is Deps.TypingTicks' default: a time.Ticker.
func newTicker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// typist shows Signal's typing indicator while a reply is on its way, each
// in a goroutine of its own: it shows it, shows it again every refresh until
// the reply is out, then clears it. It is the Bot's, built of its Deps.
type typist struct {
	api     Typer
	budget  TypingBudget // nil: no budget
	refresh time.Duration
	ticks   func(time.Duration) (ticks <-chan time.Time, stop func())
	now     func() time.Time
	log     *slog.Logger
	tracer  trace.Tracer
	running sync.WaitGroup // indicators still being shown or cleared
}

// showTyping shows the typing indicator in w's chat, for a command that has
// one, as soon as the command is accepted. It runs beside the handler, which
// never waits for it: the returned function, called once the reply is sent
// (or given up), lets it clear the indicator. Its calls are spans of their
// own leg (LegTyping), so they count neither as send time nor in the round
// trip, and a failure is logged and ignored.
func (b *Bot) showTyping(ctx context.Context, w *work) (replied func()) {
	none := func() {}
	t := &b.typist
	if t.api == nil || w.reply != nil || w.req.Command == nil || !w.req.Command.Typing {
		return none
	}
	to := w.in.ReplyTo()
	if t.budget != nil && !t.budget.SpareTyping(to, t.now()) {
		t.log.InfoContext(ctx, "typing indicator skipped: the chat's send budget is low", "command", w.name)
		return none
	}
	done := make(chan struct{})
	t.running.Add(1)
	go func() {
		defer t.running.Done()
		defer b.recoverBackground(ctx, "typing")
		// Not cancelled with the frame: the indicator is cleared after the
		// reply, when the frame's task may be over. Each call has its own
		// timeout (CALL_TIMEOUT).
		t.run(context.WithoutCancel(ctx), to, done)
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// run shows the indicator to recipient unless the reply went first, shows
// it again every refresh until the reply is out (keep), then clears it in a
// trace of its own linked to the frame's: the frame's timing is over by then.
func (t *typist) run(ctx context.Context, recipient string, replied <-chan struct{}) {
	select {
	case <-replied:
		return // the reply was faster than the indicator: nothing to show
	default:
	}
	if err := t.api.Typing(ctx, recipient, true); err != nil {
		t.log.WarnContext(ctx, "typing indicator not shown; ignored", "err", telemetry.RedactErr(err))
		return
	}
	t.keep(ctx, recipient, replied)
	sctx, span := t.tracer.Start(ctx, telemetry.SpanTypingStop, trace.WithNewRoot(), trace.WithLinks(trace.LinkFromContext(ctx)))
	defer span.End()
	if err := t.api.Typing(sctx, recipient, false); err != nil {
		markFailed(span, err)
		t.log.WarnContext(ctx, "typing indicator not cleared; ignored (Signal clients drop it by themselves)", "err", telemetry.RedactErr(err))
	}
}

// keep shows the indicator to recipient again every refresh until replied
// is closed: Signal clients drop it after about 15 s, and a picture's upload
// can take longer. Each refresh is one more message, asked of the budget
// first and skipped when the chat's budget is short; a failed one is logged
// and the next tick tries again. The calls are one after the other, so the
// clear that follows never overtakes a refresh.
func (t *typist) keep(ctx context.Context, recipient string, replied <-chan struct{}) {
	if t.refresh <= 0 {
		<-replied
		return
	}
	ticks, stop := t.ticks(t.refresh)
	defer stop()
	for {
		select {
		case <-replied:
			return
		case <-ticks:
		}
		if t.budget != nil && !t.budget.SpareTypingRefresh(recipient, t.now()) {
			t.log.DebugContext(ctx, "typing refresh skipped: the chat's send budget is low")
			continue
		}
		if err := t.api.Typing(ctx, recipient, true); err != nil {
			t.log.WarnContext(ctx, "typing indicator not refreshed; ignored", "err", telemetry.RedactErr(err))
		}
	}
}

// WaitTyping waits until every typing indicator has been cleared (or given
// up), or ctx ends; at shutdown, after the last frame.
func (b *Bot) WaitTyping(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		b.typist.running.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}
