package bot

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// apologyTimeout bounds the send of the apology after a panic.
const apologyTimeout = 10 * time.Second

// recoveredPost deals with a panic in a scheduled post: logged with its
// stack, counted by command and as a post that ended in error, the root
// span an error. Nobody asked, so nobody gets an apology.
func (b *Bot) recoveredPost(ctx context.Context, p *Post, r any, stack []byte) {
	root := trace.SpanFromContext(ctx)
	root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeError))
	root.SetStatus(codes.Error, telemetry.RedactText(fmt.Sprintf("panic: %v", r)))
	b.d.Recorder.Panicked(p.Command)
	b.d.Recorder.ScheduledPost(telemetry.OutcomeError)
	b.d.Log.ErrorContext(ctx, "panic in a scheduled post recovered", "slot", p.Slot,
		"panic", telemetry.RedactText(fmt.Sprint(r)), "stack", string(stack))
}

// recovered deals with a panic in the handling of m: the stack is logged
// once at error level (no identity: the panic value and the stack name no
// sender), the panic counted by command, the root span marked as an error,
// and, if a reply was due, the user gets the short apology.
func (b *Bot) recovered(ctx context.Context, m *Message, r any, stack []byte) {
	name := b.commandName(m)
	root := trace.SpanFromContext(ctx)
	msg := fmt.Sprintf("panic: %v", r)
	root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeError))
	root.SetStatus(codes.Error, telemetry.RedactText(msg))
	b.d.Recorder.Panicked(name)
	b.d.Log.ErrorContext(ctx, "panic in a frame's handling recovered", "command", name,
		"panic", telemetry.RedactText(fmt.Sprint(r)), "stack", string(stack))
	if !m.replyDue {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), apologyTimeout)
	defer cancel()
	out := signalapi.Outgoing{Recipient: m.In.ReplyTo(), Text: b.d.Texts.Internal(), NotifySelf: m.In.NoteToSelf}
	res, err := b.d.API.Send(ctx, out)
	b.d.Account.Note(ctx, res, err, time.Now())
	if err == nil {
		b.d.OwnSends.Remember(res.Timestamp)
	}
	if err != nil {
		b.d.Recorder.SendFailed(err)
		b.d.Log.ErrorContext(ctx, "send failed", "command", name, "err", telemetry.RedactErr(err))
	}
}

// commandName is m's command as the registry names it, for the counter's
// label and the log: "unknown" for a name the registry does not know (a
// label from the sender's text would be unbounded), "none" for a frame that
// is no command.
func (b *Bot) commandName(m *Message) string {
	if m == nil || !m.IsCommand {
		return "none"
	}
	if cmd, ok := b.d.Registry.Resolve(m.Command); ok {
		return cmd.Name
	}
	return "unknown"
}

// recoverBackground, deferred in a short-lived goroutine of the bot (the
// typing indicator), recovers a panic in it: logged once with its stack at
// error level and counted as "background:<name>". The goroutine is not
// started again: the next frame starts its own.
func (b *Bot) recoverBackground(ctx context.Context, name string) {
	if r := recover(); r != nil {
		b.d.Recorder.Panicked("background:" + name)
		b.d.Log.ErrorContext(ctx, "panic in a background goroutine recovered", "goroutine", name,
			"panic", telemetry.RedactText(fmt.Sprint(r)), "stack", string(debug.Stack()))
	}
}
