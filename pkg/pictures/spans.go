package pictures

import "go.opentelemetry.io/otel/attribute"

// tracerName is the instrumentation scope of this package's spans.
const tracerName = "signal-bot/pictures"

// Span names of this package.
const (
	// SpanTake is a command taking a picture from a pool, in the frame's
	// trace; on a miss the inline fetch is its child.
	SpanTake = "pool.take"
	// SpanRefill is the root of a refill's own trace, linked to the take
	// that caused it. OwnTime ignores it: it is not a frame.
	SpanRefill = "pool.refill"
	// SpanShrink is the decode, scale and encode of one picture.
	SpanShrink = "picture.shrink"
)

// Attribute keys of this package's spans.
const (
	// AttrPool is the command whose pool the span belongs to.
	AttrPool = attribute.Key("bot.pool")
	// AttrHit is true when a take found a ready picture.
	AttrHit = attribute.Key("bot.pool.hit")
	// AttrBytesIn is the size of a picture as the upstream sent it.
	AttrBytesIn = attribute.Key("bot.picture.bytes_in")
	// AttrBytesOut is the size of the picture that will be sent.
	AttrBytesOut = attribute.Key("bot.picture.bytes_out")
	// AttrAction is what Shrink did, an Action's name.
	AttrAction = attribute.Key("bot.picture.action")
)
