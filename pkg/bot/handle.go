package bot

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// work is what dispatch decided for a frame that gets a reply.
type work struct {
	in      signalapi.Incoming
	req     commands.Request
	name    string // the command's name for spans and logs ("unknown" for a hint)
	outcome string
	reply   *commands.Reply // a fixed reply (hint, cooldown); nil: run the command
}

// Handle runs one frame: dispatch, then the handler. It is the pipeline's Handler.
func (b *Bot) Handle(ctx context.Context, f *pipeline.Frame, slot *pipeline.Slot) {
	root := trace.SpanFromContext(ctx)
	w, err := b.dispatch(ctx, f, slot)
	if err != nil {
		markFailed(root, err)
		root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeError))
		b.d.Log.WarnContext(ctx, "frame not dispatched", "err", telemetry.RedactErr(err))
		return
	}
	if w == nil {
		root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeIgnored))
		return
	}
	outcome := b.handle(ctx, w)
	root.SetAttributes(telemetry.AttrOutcome.String(outcome))
}

// dispatch parses, scopes and resolves the frame, takes the sender's lock and
// checks the cooldown. A nil work means "no reply".
func (b *Bot) dispatch(ctx context.Context, f *pipeline.Frame, slot *pipeline.Slot) (w *work, err error) {
	ctx, span := b.tracer.Start(ctx, telemetry.SpanDispatch)
	defer func() {
		if err != nil {
			markFailed(span, err)
		}
		span.End()
	}()
	d, ok := f.Msg.(*Decoded)
	if !ok { // a pipeline without Decode
		d = b.decode(f.Raw)
	}
	if d.Err != nil {
		b.d.Log.WarnContext(ctx, "malformed frame skipped", "bytes", len(f.Raw), "err", telemetry.RedactErr(d.Err))
		return nil, nil
	}
	if d.Skip != signalapi.SkipNone {
		if d.Skip == signalapi.SkipError {
			b.d.Log.WarnContext(ctx, "error frame from signal-cli-rest-api skipped", "error", telemetry.RedactText(d.ErrorText))
		}
		return nil, nil
	}
	in := d.In
	name, args, ok := commands.Parse(in.Text)
	if !ok {
		return nil, nil
	}
	if !b.recent.add(in.SenderKey(), in.Timestamp) {
		b.d.Log.InfoContext(ctx, "duplicate frame skipped")
		return nil, nil
	}
	chat := commands.Chat{GroupID: in.GroupID, Alias: b.d.Groups.Alias(in.GroupID)}
	chatKind := telemetry.ChatDirect
	if chat.IsGroup() {
		chatKind = telemetry.ChatGroup
	}
	span.SetAttributes(
		telemetry.AttrSender.String(b.hashes.get(in.SenderKey())),
		telemetry.AttrChat.String(chatKind),
		telemetry.AttrArgsLen.Int(len(args)),
	)
	if err := b.lockSender(ctx, f, slot); err != nil {
		return nil, fmt.Errorf("wait for sender's turn: %w", err)
	}
	w = &work{in: in, req: commands.Request{
		Args: args, Sender: in.SenderKey(), SenderName: in.SenderName, Chat: chat, Now: b.d.Now(),
	}}
	cmd, found := b.d.Registry.Resolve(name)
	switch {
	case !found:
		w.name, w.outcome = "unknown", telemetry.OutcomeUnknown
		w.reply = &commands.Reply{Text: commands.TextUnknown(name)}
		return w, nil
	case !cmd.Scope.Allows(chat):
		w.name, w.outcome = cmd.Name, telemetry.OutcomeNotHere
		w.reply = &commands.Reply{Text: commands.TextNotHere(cmd.Name)}
		return w, nil
	}
	w.name, w.req.Command = cmd.Name, cmd
	use, err := b.d.Store.Use(w.req.Sender, chat.Key(), cmd.Name, w.req.Now, b.Cooldown(chat, cmd))
	if err != nil {
		return nil, err
	}
	if !use.Allowed {
		w.outcome = telemetry.OutcomeCooldown
		w.reply = &commands.Reply{Text: commands.TextCooldown(cmd.Name, use.Remaining)}
	}
	return w, nil
}

// lockSender waits for the sender's earlier frames to finish. While it
// waits, the task gives its slot up, so nobody else waits.
func (b *Bot) lockSender(ctx context.Context, f *pipeline.Frame, slot *pipeline.Slot) error {
	ctx, span := b.tracer.Start(ctx, telemetry.SpanSenderLock)
	defer span.End()
	return slot.Turn(ctx, f)
}

// handle runs the command (or the fixed reply) and sends the answer, inside
// the handler span. It returns the frame's outcome.
func (b *Bot) handle(ctx context.Context, w *work) string {
	ctx, span := b.tracer.Start(ctx, telemetry.SpanHandler, trace.WithAttributes(telemetry.AttrCommand.String(w.name)))
	defer span.End()
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
	out := signalapi.Outgoing{Recipient: w.in.ReplyTo(), Text: reply.Text}
	for _, p := range reply.Pictures {
		out.Attachments = append(out.Attachments, p.DataURI)
	}
	if _, err := b.d.API.Send(ctx, out); err != nil {
		markFailed(span, err)
		b.d.Recorder.SendFailed(err)
		level := "send failed"
		if errors.Is(err, signalapi.ErrRateLimited) {
			level = "send rate limited by Signal; not retried"
		}
		b.d.Log.ErrorContext(ctx, level, "command", w.name, "err", telemetry.RedactErr(err))
		return telemetry.OutcomeError
	}
	for _, p := range reply.Pictures {
		b.d.Log.InfoContext(ctx, "picture sent", "command", w.name, "mime", p.MIME, "bytes", p.Bytes, "width", p.Width, "height", p.Height)
	}
	return outcome
}

// markFailed records err on span with phone numbers, UUIDs and group ids
// redacted: error messages of the REST API name recipients.
func markFailed(span trace.Span, err error) {
	msg := telemetry.RedactErr(err)
	span.RecordError(errors.New(msg))
	span.SetStatus(codes.Error, msg)
}
