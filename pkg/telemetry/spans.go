package telemetry

import "go.opentelemetry.io/otel/attribute"

// The vocabulary of the bot's traces: span names, attribute keys and their
// values, for every package. otel/SPANS.md is the contract; a test checks
// that it lists every name, key and value declared here.

// TracerName is the instrumentation scope name the bot's own spans use.
const TracerName = "signal-bot"

// PicturesTracerName is the instrumentation scope of the picture pools' spans.
const PicturesTracerName = "signal-bot/pictures"

// HTTPTracerName is the instrumentation scope of the HTTP client spans that
// NewTransport makes.
const HTTPTracerName = "signal-bot/http"

// Span names of the frame path. Keep them in step with otel/SPANS.md.
const (
	// SpanFrame is the root span of a frame's trace: a new root per frame,
	// kind Consumer, started at the websocket read time.
	SpanFrame = "frame"
	// SpanScheduled is the root span of a scheduled post's trace (package
	// schedule): a new root per post, kind Internal, started when its slot's
	// time came. Its children are those of a frame (queue, dispatch,
	// handler), and it gets a timing block like a frame; it carries AttrSlot.
	SpanScheduled = "scheduled"
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

// Span names of the picture pools.
const (
	// SpanPoolTake is a command taking a picture from a pool, in the frame's
	// trace; on a miss the inline fetch is its child.
	SpanPoolTake = "pool.take"
	// SpanPoolRefill is the root of a refill's own trace, linked to the take
	// that caused it. OwnTime ignores it: it is not a frame.
	SpanPoolRefill = "pool.refill"
	// SpanPictureShrink is the decode, scale and encode of one picture.
	SpanPictureShrink = "picture.shrink"
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
	// AttrSlot is a scheduled post's slot as SCHEDULE writes it
	// (rodzina=kot@08:00: a group alias, a command, a time of day), on the
	// root span scheduled.
	AttrSlot = attribute.Key("bot.slot")
)

// Attribute keys of the picture pools' spans.
const (
	// AttrPool is the command whose pool the span belongs to.
	AttrPool = attribute.Key("bot.pool")
	// AttrPoolHit is true when a take found a ready picture.
	AttrPoolHit = attribute.Key("bot.pool.hit")
	// AttrPictureBytesIn is the size of a picture as the upstream sent it.
	AttrPictureBytesIn = attribute.Key("bot.picture.bytes_in")
	// AttrPictureBytesOut is the size of the picture that will be sent.
	AttrPictureBytesOut = attribute.Key("bot.picture.bytes_out")
	// AttrPictureAction is what the shrinker did, an Action's name.
	AttrPictureAction = attribute.Key("bot.picture.action")
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

// IsBlockRoot reports whether a root span of this name starts a trace that
// gets a timing block: a frame's, or a scheduled post's.
func IsBlockRoot(name string) bool { return name == SpanFrame || name == SpanScheduled }

// ChatKind is the AttrChat value of a chat: ChatGroup when groupID (the
// group's id, empty in a direct chat) is set, else ChatDirect.
func ChatKind(groupID string) string {
	if groupID != "" {
		return ChatGroup
	}
	return ChatDirect
}

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
	// OutcomeShed means the reply was due but the outbound budget or a 429
	// pause kept it back.
	OutcomeShed = "shed"
	// OutcomeQuiet means a refusal already sent to this sender in its window.
	OutcomeQuiet = "quiet"
	// OutcomeElsewhere means a chat outside ANSWER_IN.
	OutcomeElsewhere = "elsewhere"
)
