package bot

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/journal"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// Intake is where every frame enters the bot: the signalapi.Intake the
// websocket reader, the webhook and /_selftest hand their raw frames to,
// and the journal's replay at start. Offer starts the frame's root span,
// decodes the frame once, journals it and pushes it to the scheduler
// (pipeline) under its sender's key; run, the scheduler's task, waits for
// the sender's turn (spans queue and sender.turn), has the bot answer and
// forgets the journal entry. It is safe for concurrent use.
type Intake struct {
	bot       *Bot
	journal   *journal.Journal // nil: no journal
	pipe      *pipeline.Pipeline[*frame]
	tracer    trace.Tracer
	log       *slog.Logger
	depth     int               // QUEUE_DEPTH, for the drop log
	dropLog   outbound.LogEvery // drops: a line a minute
	refuseLog outbound.LogEvery // frames over a bound: a line a minute
	syncLog   outbound.LogEvery // webhook frames taken in memory: a line a minute
	heard     heard             // the last frame read from the REST API
}

// frame is one accepted frame on its way through the scheduler.
type frame struct {
	msg    *Message
	post   *Post  // a scheduled post instead of a message (Intake.Post)
	key    string // the sender's, for a command; "": it takes no turn
	readAt time.Time
	at     []trace.SpanStartOption // WithTimestamp(readAt), built once for root and queue; nil: build it
	root   trace.Span              // the frame's root span; run ends it

	mu      sync.Mutex // held by Offer until journal is set, since the task may be done first
	journal uint64     // the frame's journal id; 0: not journaled
}

// NewIntake returns the intake of b, its scheduler sized by cfg; j is the
// journal of accepted frames (nil: none). Start it with Run; Close and Wait
// stop it.
func NewIntake(b *Bot, j *journal.Journal, cfg pipeline.Config) *Intake {
	in := &Intake{bot: b, journal: j, pipe: pipeline.New[*frame](cfg), tracer: b.tracer, log: b.d.Log, depth: cfg.QueueDepth,
		heard: heard{since: b.d.Now()}}
	return in
}

var _ signalapi.Intake = (*Intake)(nil)

// Offer takes one raw frame (signalapi.Intake). It never waits for a slot;
// with signalapi.ViaWebhook it waits until the frame's journal entry is on
// disk (Journal.Sync: the state writer commits at once, one fsync shared by
// the POSTs that come together), so the REST API's 200 means taken, or
// until WEBHOOK_SYNC_WAIT passes: then the frame is taken in memory
// (counted, /healthz degraded). A frame over a bound of the bot (refuse)
// is refused before it reaches the store, as signalapi.ErrDeclined.
func (in *Intake) Offer(ctx context.Context, raw []byte, readAt time.Time, via signalapi.Via) (trace.TraceID, error) {
	key, m, err := in.bot.decode(raw, via)
	if err != nil { // a webhook line that carries no frame: nothing to answer, no trace
		return trace.TraceID{}, err
	}
	if via != signalapi.ViaSelftest {
		in.heard.note(readAt)
	}
	if reason := refuse(raw, m); reason != "" {
		return trace.TraceID{}, in.refused(ctx, reason, raw, m, via)
	}
	e := journal.Entry{ReadAt: readAt, Synthetic: via == signalapi.ViaSelftest, Line: via == signalapi.ViaWebhook, Raw: raw}
	f, err := in.push(key, m, e, false)
	if err != nil {
		in.dropped(ctx, err, via)
		return f.root.SpanContext().TraceID(), declined(err)
	}
	in.sync(ctx, via)
	return f.root.SpanContext().TraceID(), nil
}

// sync waits, for a webhook frame, until its journal entry is on disk or
// WEBHOOK_SYNC_WAIT passes (journal.Sync). A frame taken in memory still
// runs and is answered 200: the REST API does not retry, so a 503 would
// lose it for sure. It is counted by the journal and logged a line a minute.
func (in *Intake) sync(ctx context.Context, via signalapi.Via) {
	if via != signalapi.ViaWebhook || in.journal == nil {
		return
	}
	err := in.journal.Sync(ctx)
	if err == nil {
		return
	}
	if ok, held := in.syncLog.Allow(time.Now(), time.Minute); ok {
		in.log.WarnContext(ctx, "webhook frame taken in memory, its journal entry not on disk: a crash now would lose it; written once the state file's commits succeed",
			"err", err, "not_durable_total", in.journal.Stats().NotDurable, "more_since_last_line", held, "via", via.String(),
			"timeout", errors.Is(err, context.DeadlineExceeded))
	}
}

// push starts the frame's root span at its read time and pushes it to the
// scheduler; a frame the scheduler refuses ends at once, marked dropped. A
// new frame (e.ID 0) is journaled once it is queued; a replayed one keeps
// its entry.
func (in *Intake) push(key string, m *Message, e journal.Entry, replayed bool) (*frame, error) {
	// One slice of options, its timestamp the queue span's too.
	opts := []trace.SpanStartOption{trace.WithNewRoot(), trace.WithTimestamp(e.ReadAt),
		trace.WithSpanKind(trace.SpanKindConsumer), frameAttrs[b2i(e.Synthetic)][b2i(replayed)]}
	_, root := in.tracer.Start(context.Background(), telemetry.SpanFrame, opts...)
	f := &frame{msg: m, key: key, readAt: e.ReadAt, at: opts[1:2], root: root, journal: e.ID}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := in.pipe.Push(key, len(e.Raw), f); err != nil {
		root.SetAttributes(telemetry.OutcomeAttrs(telemetry.OutcomeDropped)...)
		root.SetStatus(codes.Error, err.Error())
		root.End()
		return f, err
	}
	if !replayed && in.journal != nil {
		e.Seen, _ = dedupKey(m)
		f.journal = in.journal.Add(e)
	}
	return f, nil
}

// frameAttrs are the root span's attributes, by synthetic and replayed.
var frameAttrs = [2][2]trace.SpanStartOption{
	{frameAttr(false, false), frameAttr(false, true)},
	{frameAttr(true, false), frameAttr(true, true)},
}

// frameAttr returns the root span's attributes: AttrSynthetic, and
// AttrReplayed for a frame from the journal.
func frameAttr(synthetic, replayed bool) trace.SpanStartOption {
	attrs := []attribute.KeyValue{telemetry.AttrSynthetic.Bool(synthetic)}
	if replayed {
		attrs = append(attrs, telemetry.AttrReplayed.Bool(true))
	}
	return trace.WithAttributes(attrs...)
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// run is the frame's task (the scheduler's fn): it waits for the sender's
// turn inside the queue span, has the bot answer, and forgets the frame's
// journal entry. A frame cut off by the hard stop stays journaled: the next
// process replays it.
func (in *Intake) run(ctx context.Context, s *pipeline.Slot, f *frame) {
	defer in.finish(s, f)
	defer f.root.End()
	ctx = trace.ContextWithSpan(ctx, f.root)
	// The queue span runs from the read time until the handler starts: the
	// wait for a slot and then for the sender's turn.
	at := f.at
	if at == nil { // a scheduled post's
		at = []trace.SpanStartOption{trace.WithTimestamp(f.readAt)}
	}
	_, queue := in.tracer.Start(ctx, telemetry.SpanQueue, at...)
	if s.Stopped() { // queued at the hard stop: cut off, not run
		queue.End()
		f.root.SetAttributes(telemetry.OutcomeAttrs(telemetry.OutcomeCutOff)...)
		return
	}
	err := in.awaitTurn(ctx, s, f, queue)
	queue.End()
	if err != nil {
		outcome := telemetry.OutcomeError
		if s.Stopped() {
			outcome = telemetry.OutcomeCutOff
		} else {
			in.log.WarnContext(ctx, "frame not run: its sender's turn did not come before its deadline", "err", err)
		}
		f.root.SetAttributes(telemetry.OutcomeAttrs(outcome)...)
		f.root.SetStatus(codes.Error, "wait for the sender's turn: "+err.Error())
		return
	}
	in.handleSafe(ctx, s, f)
}

// handleSafe is Handle with a panic recovered: the frame's task, and with
// it the process, outlive any command or handler.
func (in *Intake) handleSafe(ctx context.Context, s *pipeline.Slot, f *frame) {
	defer func() {
		if r := recover(); r != nil {
			if f.post != nil {
				in.bot.recoveredPost(ctx, f.post, r, debug.Stack())
				return
			}
			in.bot.recovered(ctx, f.msg, r, debug.Stack())
		}
	}()
	if f.post != nil {
		in.bot.handlePost(ctx, s, f.post)
		return
	}
	in.bot.Handle(ctx, s, f.msg)
}

// awaitTurn waits, inside the queue span (span sender.turn), until every
// earlier frame of the sender has finished, giving the slot up meanwhile. A
// frame without a key takes no turn.
func (in *Intake) awaitTurn(ctx context.Context, s *pipeline.Slot, f *frame, queue trace.Span) error {
	if f.key == "" {
		return nil
	}
	ctx, span := in.tracer.Start(trace.ContextWithSpan(ctx, queue), telemetry.SpanSenderTurn)
	defer span.End()
	return s.AwaitTurn(ctx)
}

// finish forgets the journal entry of a frame whose outcome is final.
func (in *Intake) finish(s *pipeline.Slot, f *frame) {
	if in.journal == nil || s.Stopped() { // a frame cut by the hard stop stays journaled
		return
	}
	f.mu.Lock()
	id := f.journal
	f.mu.Unlock()
	in.journal.Finish(id)
}

// Run hands the queued frames to their tasks until Close has been called
// and the queue is empty. Call it once.
func (in *Intake) Run() { in.pipe.Run(in.run) }

// Close stops taking frames; the ones already queued still run.
func (in *Intake) Close() { in.pipe.Close() }

// Wait waits until every accepted frame has finished, or ctx ends; then it
// cuts off the ones still running or queued and reports how many they were.
func (in *Intake) Wait(ctx context.Context) (cutOff int) { return in.pipe.Wait(ctx) }

// Heard reports when the last frame from the REST API was read (see Heard).
func (in *Intake) Heard() Heard { return in.heard.get() }

// Stats reports the scheduler's queue and slots now.
func (in *Intake) Stats() pipeline.Stats { return in.pipe.Stats() }

// JournalStats reports the journal of accepted frames, and false when there
// is none (JOURNAL_MAX_FRAMES=0).
func (in *Intake) JournalStats() (journal.Stats, bool) {
	if in.journal == nil {
		return journal.Stats{}, false
	}
	return in.journal.Stats(), true
}
