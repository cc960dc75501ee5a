package telemetry

import "go.opentelemetry.io/otel/attribute"

// TracerName is the instrumentation scope name the bot's own spans use.
const TracerName = "signal-bot"

// Span names of the frame path. Keep them in step with otel/SPANS.md.
const (
	// SpanFrame is the root span of a frame's trace: a new root per frame,
	// kind Consumer, started at the websocket read time.
	SpanFrame = "frame"
	// SpanQueue is the wait from the read time until the handler starts: for
	// a free slot, then for the sender's turn. Started with
	// trace.WithTimestamp(readTime).
	SpanQueue = "queue"
	// SpanDispatch covers ANSWER_IN, the duplicate filter, resolving, scope
	// and the cooldown.
	SpanDispatch = "dispatch"
	// SpanSenderTurn is the wait for the sender's turn (its earlier frames
	// finishing), a child of queue. It was named sender.lock, and was a child
	// of dispatch, before.
	SpanSenderTurn = "sender.turn"
	// SpanHandler is the command's handler; it carries AttrCommand.
	SpanHandler = "handler"
	// SpanSendWait is a reply's wait for the outbound budget or the end of a
	// 429 pause, a child of handler. It is own time (the bot chose to wait),
	// and the block shows it on its own as well, as send_wait_ms.
	SpanSendWait = "send.wait"
)

// Attribute keys of the span model. Nothing else about a person is recorded:
// no phone numbers, UUIDs, names, message text or group ids.
const (
	// AttrCommand is the resolved command name, on the handler span.
	AttrCommand = attribute.Key("bot.command")
	// AttrLeg marks an HTTP client span as LegUpstream, LegSend or LegTyping.
	AttrLeg = attribute.Key("bot.leg")
	// AttrSynthetic is true on a frame injected by /_selftest.
	AttrSynthetic = attribute.Key("bot.synthetic")
	// AttrReplayed is set on the root span of a frame a previous process
	// accepted and did not finish, run again from the journal at start.
	AttrReplayed = attribute.Key("bot.replayed")
	// AttrSender is the sender as SenderHash, never the number or UUID.
	AttrSender = attribute.Key("bot.sender")
	// AttrChat is ChatGroup or ChatDirect.
	AttrChat = attribute.Key("bot.chat")
	// AttrArgsLen is the length in bytes of the command's arguments.
	AttrArgsLen = attribute.Key("bot.args.len")
	// AttrOutcome is what became of the frame, one of the Outcome values.
	AttrOutcome = attribute.Key("bot.outcome")
)

// Values of AttrLeg.
const (
	// LegUpstream marks calls to third-party APIs (The Cat API, Wikimedia).
	LegUpstream = "upstream"
	// LegSend marks calls to the Signal REST API (POST /v2/send and others).
	LegSend = "send"
	// LegTyping marks the typing indicator's calls to the REST API. They run
	// beside the handler, which never waits for them: they count neither as
	// send time (which own_ms subtracts) nor in the round trip.
	LegTyping = "typing"
	// SpanTypingStop is the root of the trace that clears a typing indicator
	// after the reply, linked to the frame's trace: not part of the frame.
	SpanTypingStop = "typing.stop"
)

// Values of AttrChat.
const (
	// ChatGroup is a message in a group.
	ChatGroup = "group"
	// ChatDirect is a one-to-one message.
	ChatDirect = "direct"
)

// Values of AttrOutcome.
const (
	// OutcomeServed means a reply was sent.
	OutcomeServed = "served"
	// OutcomeIgnored means the frame needed no reply (receipt, typing, no command...).
	OutcomeIgnored = "ignored"
	// OutcomeCooldown means the command was refused by its cooldown.
	OutcomeCooldown = "cooldown"
	// OutcomeUnknown means the text looked like a command nobody knows.
	OutcomeUnknown = "unknown"
	// OutcomeNotHere means the command does not answer in this chat (its scope).
	OutcomeNotHere = "not_here"
	// OutcomeError means the handler or the send failed.
	OutcomeError = "error"
	// OutcomeDropped means the intake FIFO was full.
	OutcomeDropped = "dropped"
	// OutcomeCutOff means a hard stop at shutdown ended the frame before it ran.
	OutcomeCutOff = "cut_off"
)
