package bot

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// Post is a scheduled post (package schedule decides when; its record is on
// disk by the time the bot gets it): the reply of Command, posted in a group
// as a reply to nobody.
type Post struct {
	Slot    string // the slot as SCHEDULE writes it (rodzina=kot@08:00), for the span and the log
	Alias   string // the group's alias
	GroupID string // signal-cli's id of the group
	Command string // the command's name
}

// Post pushes a scheduled post to the scheduler, as Offer does a frame, under
// a root span of its own (SpanScheduled) started now: its task runs it in a
// slot, through the outbound budget and the 429 pause like a reply. It never
// waits. Its error is the queue's refusal: the post is dropped, counted and
// logged.
func (in *Intake) Post(ctx context.Context, p Post) (trace.TraceID, error) {
	now := time.Now()
	_, root := in.tracer.Start(context.Background(), telemetry.SpanScheduled,
		trace.WithNewRoot(), trace.WithTimestamp(now), trace.WithAttributes(telemetry.AttrSlot.String(p.Slot)))
	id := root.SpanContext().TraceID()
	if err := in.pipe.Push("", 0, &frame{post: &p, readAt: now, root: root}); err != nil {
		root.SetAttributes(telemetry.AttrOutcome.String(telemetry.OutcomeDropped))
		root.SetStatus(codes.Error, err.Error())
		root.End()
		in.bot.d.Recorder.ScheduledPost(telemetry.OutcomeDropped)
		in.log.WarnContext(ctx, "scheduled post dropped: the intake's queue is full", "slot", p.Slot, "err", err, "trace_id", id.String())
		return id, err
	}
	return id, nil
}

// handlePost runs a scheduled post in its task, holding slot s: dispatch
// resolves its command, handle runs it and sends the reply to the group, as
// for a frame. ctx carries the post's root span.
func (b *Bot) handlePost(ctx context.Context, s *pipeline.Slot, p *Post) {
	outcome := telemetry.OutcomeError
	if w := b.dispatchPost(ctx, p); w != nil {
		outcome = b.handle(ctx, s, w)
	}
	trace.SpanFromContext(ctx).SetAttributes(telemetry.AttrOutcome.String(outcome))
	b.d.Recorder.ScheduledPost(outcome)
	b.d.Log.InfoContext(ctx, "scheduled post", "slot", p.Slot, "outcome", outcome)
}

// dispatchPost is a scheduled post's dispatch: no sender, so no ANSWER_IN,
// duplicate filter, scope or cooldown; only the command, checked against the
// registry at start.
func (b *Bot) dispatchPost(ctx context.Context, p *Post) *work {
	ctx, span := b.tracer.Start(ctx, telemetry.SpanDispatch, trace.WithAttributes(telemetry.AttrChat.String(telemetry.ChatGroup)))
	defer span.End()
	cmd, ok := b.d.Registry.Get(p.Command)
	if !ok {
		b.d.Log.ErrorContext(ctx, "scheduled post's command not found", "slot", p.Slot)
		return nil
	}
	return &work{in: signalapi.Incoming{GroupID: p.GroupID}, name: cmd.Name, req: commands.Request{
		Command: cmd, Chat: commands.Chat{GroupID: p.GroupID, Alias: p.Alias}, Now: b.d.Now(),
		Registry: b.d.Registry, Texts: b.d.Texts,
	}}
}
