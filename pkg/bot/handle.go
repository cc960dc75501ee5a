package bot

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/store"
	"signal-bot/pkg/telemetry"
)

// Message is a frame read once, at the door, before its task starts: the
// message to answer, or why it gets none.
type Message struct {
	In        signalapi.Incoming
	Skip      signalapi.Skip
	ErrorText string                    // the REST API's error, for an error frame
	Exc       *signalapi.FrameException // signal-cli's exception, for an exception frame
	Err       error                     // the frame is not JSON of the expected shape
	Size      int                       // the raw frame's bytes, for the log
	// Command and Args are In.Text parsed (commands.Parse); IsCommand says
	// whether it is a command at all.
	Command, Args string
	IsCommand     bool
	// Repeat is the timestamp of the bot's picture a 🔁 reaction asked
	// another of (Command is that picture's); 0 for a message.
	Repeat int64
	// replyDue is set once dispatch has decided the frame gets a reply: a
	// panic after it gets the apology (recovered), one before it nothing.
	replyDue bool
	// replayed: the frame comes from the journal a dead process left
	// (Intake.Replay); its use may be recorded already (store.Ref).
	replayed bool
}

// decode reads and classifies a raw frame, once, at the intake's door, so
// the sender's turn is keyed from the same reading that dispatch uses: a
// websocket or synthetic frame with signalapi.DecodeFrame, a webhook's
// JSON-RPC line with signalapi.DecodeLine. It returns the sender's key only
// for a command: a frame that gets no reply at all (a receipt, typing, plain
// text, a malformed or error frame) takes no turn and waits for nobody. The
// error is a webhook line that carries no frame (signalapi.ErrNotReceive,
// signalapi.ErrBadLine); a malformed frame is a Message with Err.
func (b *Bot) decode(raw []byte, via signalapi.Via) (string, *Message, error) {
	m := &Message{Size: len(raw)}
	var frame signalapi.Frame
	var err error
	if via == signalapi.ViaWebhook {
		frame, err = signalapi.DecodeLine(raw)
		if errors.Is(err, signalapi.ErrNotReceive) || errors.Is(err, signalapi.ErrBadLine) {
			return "", nil, err
		}
	} else {
		frame, err = signalapi.DecodeFrame(raw)
	}
	if err != nil {
		m.Err = err
		return "", m, nil
	}
	classify := signalapi.Classify
	if b.d.OwnerCommands {
		classify = signalapi.ClassifyOwner
	}
	m.In, m.Skip = classify(frame, b.d.API.Number())
	m.ErrorText, m.Exc = frame.Error, frame.Exc
	if m.Skip == signalapi.SkipReaction && b.repeatOf(m) {
		return m.In.SenderKey(), m, nil
	}
	if m.Skip != signalapi.SkipNone {
		return "", m, nil
	}
	if m.Command, m.Args, m.IsCommand = commands.Parse(b.commandText(m.In)); !m.IsCommand {
		return "", m, nil
	}
	return m.In.SenderKey(), m, nil
}

// work is what dispatch decided for a frame that gets a reply.
type work struct {
	in      signalapi.Incoming
	req     commands.Request
	name    string // the command's name for spans and logs ("unknown" for a hint)
	outcome string
	reply   *commands.Reply  // a fixed reply (hint, cooldown); nil: run the command
	react   string           // a reaction instead of a reply (REACTIONS=on: ⏳ for a cooldown)
	repeat  int64            // a 🔁 on the bot's picture sent at this timestamp asked; 0: a message did
	silent  bool             // no reply at all: outcome says why
	ref     store.Ref        // the message the use is for
	prepaid *outbound.Ticket // the reply's place in the budget, taken before Run (prepay); nil: send takes it
	// pastPause: an admin's answer, which the pause after a 429 does not hold
	// back (turn); the budget still does.
	pastPause bool
}

// Handle runs one message when it is its sender's turn, in the frame's task
// holding slot s: dispatch, then the handler. ctx carries the frame's root
// span.
func (b *Bot) Handle(ctx context.Context, s *pipeline.Slot, m *Message) {
	root := trace.SpanFromContext(ctx)
	w := b.dispatch(ctx, m)
	if w == nil {
		root.SetAttributes(telemetry.OutcomeAttrs(telemetry.OutcomeIgnored)...)
		return
	}
	if w.silent { // kept quiet, or from outside ANSWER_IN: no reply, but not "ignored"
		root.SetAttributes(telemetry.OutcomeAttrs(w.outcome)...)
		return
	}
	m.replyDue = true
	outcome := b.handle(ctx, s, w)
	root.SetAttributes(telemetry.OutcomeAttrs(outcome)...)
}

// dispatch skips what gets no reply, hands !bot to admin, checks ANSWER_IN,
// an admin's pause and duplicates, then resolves the command, checks whether
// it is switched off, its scope and its cooldown as the settings in force
// have them. A nil work means "no reply".
func (b *Bot) dispatch(ctx context.Context, m *Message) *work {
	ctx, span := b.tracer.Start(ctx, telemetry.SpanDispatch)
	defer span.End()
	if !b.answerable(ctx, m) || !b.ownerMay(ctx, m.In) {
		return nil
	}
	in, name, args := m.In, m.Command, m.Args
	if name == AdminCommand { // before ANSWER_IN: an admin is answered wherever ADMINS says
		return b.admin(ctx, m)
	}
	if b.d.Audience != nil && !b.d.Audience.Allows(in) {
		b.elsewhere(ctx, in)
		return &work{outcome: telemetry.OutcomeElsewhere, silent: true}
	}
	if !b.settings.changes.PausedUntil(b.d.Now()).IsZero() { // !bot pauza: nothing but !bot
		b.d.Recorder.FrameIgnored("paused")
		return nil
	}
	if !b.recent.add(in.SenderKey(), in.Timestamp) {
		b.d.Recorder.FrameSkipped(signalapi.SkipDuplicate.Label())
		b.d.Log.InfoContext(ctx, "duplicate frame skipped")
		return nil
	}
	chat := commands.Chat{GroupID: in.GroupID, Alias: b.d.Groups.Alias(in.GroupID)}
	span.SetAttributes(
		telemetry.AttrSender.String(b.hashes.get(in.SenderKey())),
		telemetry.AttrChat.String(telemetry.ChatKind(chat.GroupID)),
		telemetry.AttrArgsLen.Int(len(args)),
	)
	w := &work{in: in, repeat: m.Repeat, req: commands.Request{
		Args: args, Sender: in.SenderKey(), SenderName: in.SenderName, Chat: chat, Now: b.d.Now(),
		Registry: b.d.Registry, Texts: b.d.Texts, Timestamp: in.Timestamp,
	}, ref: store.Ref{Timestamp: in.Timestamp, Replayed: m.replayed}}
	cmd, found := b.d.Registry.Resolve(name)
	switch {
	case !found:
		// One hint per sender per window, whatever the unknown name: 300 × !x, or !a !b
		// !c…, get one.
		w.name, w.outcome = "unknown", telemetry.OutcomeUnknown
		w.reply = &commands.Reply{Text: b.d.Texts.Unknown(name)}
		return b.refusal(ctx, w, "", 0)
	case b.settings.Off(cmd): // !bot off: as if it were not there, but without the hint
		b.d.Recorder.FrameIgnored("off")
		return nil
	case !b.settings.Scope(cmd).Allows(chat):
		w.name, w.outcome = cmd.Name, telemetry.OutcomeNotHere
		w.reply = &commands.Reply{Text: b.d.Texts.NotHere(cmd.NameIn(b.d.Texts.Lang()))}
		return b.refusal(ctx, w, cmd.Name, b.settings.Cooldown(chat, cmd, w.req.Now))
	}
	w.name, w.req.Command = cmd.Name, cmd
	return b.use(ctx, span, w)
}

// use checks w's command's cooldown and records the use, in one step in
// memory (the store commits it later): the work as it is when the use is
// allowed, a "wait" refusal when it is not, an apology when recording failed.
// A replayed frame whose use the dead process recorded already is run again,
// never refused: its user gets the reply again (docs/faults.md §9).
func (b *Bot) use(ctx context.Context, span trace.Span, w *work) *work {
	cmd, chat := w.req.Command, w.req.Chat
	cooldown := b.settings.Cooldown(chat, cmd, w.req.Now)
	use, err := b.d.Store.Use(w.req.Sender, chat.Key(), cmd.Name, w.req.Now, cooldown, w.ref)
	b.state.note(err, w.req.Now)
	if err != nil {
		// Not silence: the user hears that something went wrong, /healthz says degraded.
		b.d.Recorder.StateFailed(cmd.Name)
		b.d.Log.ErrorContext(ctx, "recording a use failed", "command", cmd.Name, "err", telemetry.RedactErr(err))
		markFailed(span, err)
		w.outcome = telemetry.OutcomeError
		w.reply = &commands.Reply{Text: b.d.Texts.Internal()}
		return w
	}
	if use.Again {
		b.d.Log.InfoContext(ctx, "replayed frame's use recorded before the restart; answering it again", "command", cmd.Name)
	}
	if !use.Allowed {
		w.outcome = telemetry.OutcomeCooldown
		if b.d.Reactor != nil { // a quiet acknowledgement: the asker sees it was heard
			w.react = EmojiWait
		} else {
			w.reply = &commands.Reply{Text: b.d.Texts.Cooldown(cmd.NameIn(b.d.Texts.Lang()), use.Remaining)}
		}
		return b.refusal(ctx, w, cmd.Name, cooldown)
	}
	return w
}

// answerable says whether m is a command to dispatch; a frame that is not
// is counted by its reason, and logged when it is malformed or an error.
func (b *Bot) answerable(ctx context.Context, m *Message) bool {
	if skip := skipOf(m); skip != signalapi.SkipNone {
		b.skipped(ctx, m, skip)
		return false
	}
	return true
}

// refusal lets a refusal (hint, "not here", "wait") through once per sender, command and
// window, the longer of the cooldown and QuietWindow; within the window it is kept quiet
// and counted, and the frame gets no reply.
func (b *Bot) refusal(ctx context.Context, w *work, command string, cooldown time.Duration) *work {
	window := max(cooldown, b.d.QuietWindow)
	if b.quiet.allow(w.req.Sender, command, w.outcome, w.req.Now, window) {
		return w
	}
	b.d.Recorder.ReplyShed(ShedQuiet)
	trace.SpanFromContext(ctx).SetAttributes(telemetry.OutcomeAttrs(telemetry.OutcomeQuiet)...)
	return &work{outcome: telemetry.OutcomeQuiet, silent: true}
}

// elsewhere counts a command from a chat outside ANSWER_IN and logs it, without the
// sender, at most once a minute.
func (b *Bot) elsewhere(ctx context.Context, in signalapi.Incoming) {
	b.d.Recorder.FrameIgnored("answer_in")
	if ok, held := b.elsewhereLog.Allow(time.Now(), time.Minute); ok {
		b.d.Log.InfoContext(ctx, "command from a chat outside ANSWER_IN ignored", "chat", telemetry.ChatKind(in.GroupID), "more_since_last_line", held)
	}
}

// handle runs the command (or the fixed reply) and sends the answer, inside
// the handler span, giving s up while the reply waits for the outbound
// budget. It returns the frame's outcome.
func (b *Bot) handle(ctx context.Context, s *pipeline.Slot, w *work) string {
	ctx, span := b.tracer.Start(ctx, telemetry.SpanHandler, telemetry.HandlerStart(w.name)...)
	defer span.End()
	if w.react != "" {
		return b.react(ctx, s, span, w)
	}
	if w.reply == nil && w.req.Command != nil && w.req.Command.Pictures > 0 {
		if reason := b.prepay(ctx, s, w); reason != "" {
			b.shed(ctx, w, reason)
			return telemetry.OutcomeShed
		}
	}
	replied := b.showTyping(ctx, w)
	defer replied()
	outcome := telemetry.OutcomeServed
	if w.outcome != "" {
		outcome = w.outcome
	}
	var reply commands.Reply
	if w.reply != nil {
		reply = *w.reply
	} else {
		var err error
		reply, err = w.req.Command.Run(ctx, w.req)
		if err != nil {
			outcome = telemetry.OutcomeError
			markFailed(span, err)
			b.d.Recorder.CommandFailed(w.name, err)
			b.d.Log.WarnContext(ctx, "command failed", "command", w.name, "err", telemetry.RedactErr(err))
			if reply.Text == "" && len(reply.Pictures) == 0 {
				return outcome
			}
		}
	}
	return b.send(ctx, s, span, w, reply, outcome)
}

// markFailed records err on span with phone numbers, UUIDs and group ids
// redacted: error messages of the REST API name recipients.
func markFailed(span trace.Span, err error) {
	msg := telemetry.RedactErr(err)
	span.RecordError(errors.New(msg))
	span.SetStatus(codes.Error, msg)
}
