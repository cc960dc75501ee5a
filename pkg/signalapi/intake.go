package signalapi

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/trace"
)

// Intake takes the raw frames the receivers read: the websocket reader
// (Client.Receive), the webhook (Webhook) and /_selftest all hand theirs to
// one. It is the one call from the receiving code up into the bot, the kind
// of inversion http.Handler is for net/http.
type Intake interface {
	// Offer takes one raw frame read at readAt, as via read it, and returns
	// the trace of the frame. It never waits for a slot or for the frame's
	// handling. With ViaWebhook it returns once the frame is on disk (the
	// REST API's POST is answered only then, so a 200 survives a crash),
	// or once a bound of its own on that wait has passed, ctx bounding it
	// too; otherwise it never waits at all. A line that is no receive
	// notification is an error (ErrNotReceive, ErrBadLine); a frame the bot
	// chose not to take is ErrDeclined; any other error is a frame it could
	// not take (a full or closed queue).
	Offer(ctx context.Context, raw []byte, readAt time.Time, via Via) (trace.TraceID, error)
}

// ErrDeclined is Offer's error for a frame the bot chose not to take: a
// sender with its fill of frames waiting, a sender id or a frame over the
// bot's bounds. It was counted and logged; the webhook answers it 200, since
// the REST API does not retry and would only log an error per message.
var ErrDeclined = errors.New("frame declined")

// Via is the receiver that read a raw frame, which says what the bytes are
// and whether Offer may wait.
type Via uint8

const (
	// ViaWebsocket is a websocket text frame: the params of a receive
	// notification, or the REST API's {"error":…}. Offer never waits: the
	// reader must not block.
	ViaWebsocket Via = iota
	// ViaWebhook is a POSTed JSON-RPC line (DecodeLine).
	ViaWebhook
	// ViaSelftest is /_selftest's synthetic frame (TextFrame), shaped as a
	// websocket frame.
	ViaSelftest
)

// String names v for logs.
func (v Via) String() string {
	switch v {
	case ViaWebhook:
		return "webhook"
	case ViaSelftest:
		return "selftest"
	default:
		return "websocket"
	}
}
