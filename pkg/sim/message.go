package sim

import (
	"crypto/sha256"
	"fmt"
)

// Message is one incoming event to deliver as a websocket frame.
type Message struct {
	// From is the sender's number. "" makes sourceNumber null (phone-number privacy); the bot
	// must then reply to UUID. If From and UUID are both empty the sender is DefaultSender.
	From string
	// UUID is the sender's uuid; empty means UUIDOf(From).
	UUID string
	// Name is the sender's profile name; empty makes sourceName null.
	Name string
	// Group is the group's alias, REST id, internal id or name; empty is a direct message.
	Group string
	// Text is the message body; for reactions the emoji, for typing "STOPPED" or not, for
	// the kinds that are no text their own text field (KindPollCreate …), for
	// receipts "read", "viewed" or not (delivery).
	Text string
	Kind Kind
	// Attachments are files that came with the message (KindText, KindAttachmentOnly).
	Attachments []InAttachment
	// Timestamp is the envelope's timestamp in epoch ms; 0 means now.
	Timestamp int64
	// Target is the timestamp a receipt, reaction or edit refers to; 0 means the bot's last send.
	Target int64
	// TargetAuthor is the author (a number or uuid) of the message a reaction refers to; ""
	// means the bot.
	TargetAuthor string
	// Options are a poll's options (KindPollCreate).
	Options []string
	// Mentions are the members (a number or uuid each) that the U+FFFC placeholders of Text
	// stand for, in order, as Signal clients write an @mention (KindText).
	Mentions []string
	// To is, for KindSync outside a group, the transcript's destination: a number or a uuid;
	// the bot's own number is Note-to-Self; "" is the sender From would be.
	To string
	// Device is the envelope's sourceDevice; 0 is 1, the phone. For KindSync any other is a
	// linked device of the account (Signal Desktop, another signal-cli, the bot's own).
	Device int
}

// InAttachment is a file attached to an incoming message. The simulator stores its bytes so
// that GET /v1/attachments/{id} serves them, as signal-cli does.
type InAttachment struct {
	ContentType string `json:"content_type,omitempty"` // empty: sniffed from Data
	Filename    string `json:"filename,omitempty"`     // empty: null in the frame
	Data        []byte `json:"data,omitempty"`         // base64 in JSON; nil: a small PNG
	Width       int    `json:"width,omitempty"`        // 0: decoded from Data when it is an image
	Height      int    `json:"height,omitempty"`
	Caption     string `json:"caption,omitempty"`
}

// UUIDOf returns the uuid the simulator gives the account with this number. It is
// deterministic, so tests can predict where a reply to a privacy-enabled sender must go.
func UUIDOf(number string) string {
	sum := sha256.Sum256([]byte("signal-sim uuid " + number))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// sender is the resolved sender of a message.
type sender struct {
	number *string // nil when hidden
	uuid   string
	name   *string
}

// senderOf resolves m's sender, applying the defaults documented on Message.
func senderOf(m Message) sender {
	from, id := m.From, m.UUID
	if from == "" && id == "" {
		from = DefaultSender
	}
	if id == "" {
		id = UUIDOf(from)
	}
	return sender{number: strPtr(from), uuid: id, name: strPtr(m.Name)}
}

// strPtr returns nil for "" and a pointer to s otherwise.
func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
