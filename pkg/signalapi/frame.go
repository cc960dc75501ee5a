// Package signalapi speaks to signal-cli-rest-api in json-rpc mode: it
// receives frames over the websocket and sends replies with POST /v2/send.
package signalapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Frame is one websocket text frame: the raw params of a signal-cli
// "receive" notification, or an error the REST API passed on.
type Frame struct {
	Envelope *Envelope       `json:"envelope"`
	Account  string          `json:"account"`
	Error    string          `json:"error,omitempty"`
	Exc      *FrameException `json:"exception,omitempty"`
}

// FrameException is signal-cli's report of a message it could not decrypt or handle.
type FrameException struct {
	Message string `json:"message"`
	Type    string `json:"type"`
}

// Envelope is signal-cli's JsonMessageEnvelope. Exactly one of the message
// fields is normally set.
type Envelope struct {
	Source          *string          `json:"source"`
	SourceNumber    *string          `json:"sourceNumber"`
	SourceUUID      *string          `json:"sourceUuid"`
	SourceName      *string          `json:"sourceName"`
	SourceDevice    *int             `json:"sourceDevice"`
	Timestamp       int64            `json:"timestamp"`
	DataMessage     *DataMessage     `json:"dataMessage,omitempty"`
	EditMessage     *json.RawMessage `json:"editMessage,omitempty"`
	StoryMessage    *json.RawMessage `json:"storyMessage,omitempty"`
	SyncMessage     *SyncMessage     `json:"syncMessage,omitempty"`
	CallMessage     *json.RawMessage `json:"callMessage,omitempty"`
	ReceiptMessage  *json.RawMessage `json:"receiptMessage,omitempty"`
	TypingMessage   *json.RawMessage `json:"typingMessage,omitempty"`
	ServerReceived  *int64           `json:"serverReceivedTimestamp,omitempty"`
	ServerDelivered *int64           `json:"serverDeliveredTimestamp,omitempty"`
}

// DataMessage is the part of signal-cli's JsonDataMessage the bot reads.
// Of the members that make a message something other than a text (a poll,
// a pin, a deletion, a reply to a story) only the presence is read: Classify
// skips such a message by its kind, whatever text it carries.
type DataMessage struct {
	Timestamp   int64        `json:"timestamp"`
	Message     *string      `json:"message"`
	GroupInfo   *GroupInfo   `json:"groupInfo,omitempty"`
	Reaction    *Reaction    `json:"reaction,omitempty"`
	Mentions    []Mention    `json:"mentions,omitempty"`
	Attachments []Attachment `json:"attachments,omitempty"`

	RemoteDelete  Present `json:"remoteDelete,omitempty"`  // {"timestamp"}: the sender deleted a message for everyone
	AdminDelete   Present `json:"adminDelete,omitempty"`   // a group admin deleted someone's message
	PollCreate    Present `json:"pollCreate,omitempty"`    // {"question","allowMultiple","options"}
	PollVote      Present `json:"pollVote,omitempty"`      // a vote on a poll: its author, timestamp and the options chosen
	PollTerminate Present `json:"pollTerminate,omitempty"` // {"targetSentTimestamp"}: a poll closed
	PinMessage    Present `json:"pinMessage,omitempty"`    // a message pinned in the chat
	UnpinMessage  Present `json:"unpinMessage,omitempty"`  // a pin taken off
	StoryContext  Present `json:"storyContext,omitempty"`  // {"authorNumber","authorUuid","sentTimestamp"}: a reply to a story
}

// Present is a member of which only the presence counts: true when the
// member is there and not null. Its content is checked for JSON syntax and
// skipped unread, without a copy; a bool keeps the data message small.
type Present bool

// UnmarshalJSON notes the member, unless it is null.
func (p *Present) UnmarshalJSON(b []byte) error {
	*p = Present(string(b) != "null")
	return nil
}

// Reaction is signal-cli's JsonReaction: an emoji on the message of
// TargetAuthor (the number, or the uuid when it is hidden) sent at
// TargetSentTimestamp, or (IsRemove) one taken back.
type Reaction struct {
	Emoji               string  `json:"emoji"`
	TargetAuthor        string  `json:"targetAuthor"`
	TargetAuthorNumber  *string `json:"targetAuthorNumber"`
	TargetAuthorUUID    *string `json:"targetAuthorUuid"`
	TargetSentTimestamp int64   `json:"targetSentTimestamp"`
	IsRemove            bool    `json:"isRemove"`
}

// Mention is signal-cli's JsonMention: who is mentioned (Name is the number,
// or the uuid when the number is hidden) and where the mention's U+FFFC
// placeholder is in the text, in UTF-16 code units.
type Mention struct {
	Name   string  `json:"name"`
	Number *string `json:"number"`
	UUID   *string `json:"uuid"`
	Start  int     `json:"start"`
	Length int     `json:"length"`
}

// SyncMessage is signal-cli's JsonSyncMessage: what another device of the
// account tells this one. Only sentMessage, a transcript of a message the
// account sent from another device, is read; read lists, blocked lists and
// contact syncs leave it nil.
type SyncMessage struct {
	SentMessage *SentMessage `json:"sentMessage,omitempty"`
}

// SentMessage is signal-cli's JsonSyncDataMessage: the destination of a
// message the account sent (all null for a group, whose id is in groupInfo)
// and the message itself, whose data-message fields signal-cli flattens into
// it (@JsonUnwrapped), as the embedded DataMessage reads them.
type SentMessage struct {
	Destination       *string          `json:"destination"` // the number, or the uuid when it is not known
	DestinationNumber *string          `json:"destinationNumber"`
	DestinationUUID   *string          `json:"destinationUuid"`
	EditMessage       *json.RawMessage `json:"editMessage,omitempty"`
	DataMessage
}

// GroupInfo names the group a data message belongs to. GroupID is signal-cli's
// id: the base64 of the group's 32 raw bytes.
type GroupInfo struct {
	GroupID   string `json:"groupId"`
	GroupName string `json:"groupName,omitempty"`
	Type      string `json:"type"`
}

// Attachment is an incoming attachment's metadata. IsVoiceNote is written
// by signal-cli builds newer than 0.14.6 (JsonAttachment); older ones leave
// it out, and a voice note is then an attachment like any other.
type Attachment struct {
	ContentType string `json:"contentType"`
	Filename    string `json:"filename"`
	ID          string `json:"id"`
	Size        int64  `json:"size"`
	IsVoiceNote bool   `json:"isVoiceNote"`
}

// DecodeFrame parses one websocket frame.
func DecodeFrame(raw []byte) (Frame, error) {
	var f Frame
	if err := json.Unmarshal(raw, &f); err != nil {
		return Frame{}, fmt.Errorf("decode frame: %w", err)
	}
	return f, nil
}

// Errors of DecodeLine for a line that carries no frame.
var (
	// ErrNotReceive is a line of another method than "receive": ignored, as
	// the REST API ignores them.
	ErrNotReceive = errors.New("not a receive notification")
	// ErrBadLine is a body that is no JSON-RPC line, or a receive line
	// without params.
	ErrBadLine = errors.New("bad JSON-RPC line")
)

// rpcLine is a JSON-RPC line as the REST API's webhook POSTs it, decoded in
// one pass, its params straight into a Frame.
type rpcLine struct {
	Version string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  *Frame `json:"params"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// DecodeLine reads the frame out of one JSON-RPC line, in one pass: the
// params of a "receive" notification, or, when signal-cli reported an error,
// the frame {"error":…} the websocket would carry. A line of another method
// is ErrNotReceive, a body that is no JSON-RPC line or a receive line
// without params ErrBadLine. Params of the wrong shape are the error
// DecodeFrame would give for them: a malformed frame, not a bad line.
func DecodeLine(raw []byte) (Frame, error) {
	var l rpcLine
	err := json.Unmarshal(raw, &l)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
	case errors.As(err, &typeErr) && (typeErr.Field == "params" || strings.HasPrefix(typeErr.Field, "params.")) && l.Method == "receive":
		return Frame{}, fmt.Errorf("decode frame: %w", err)
	default:
		return Frame{}, fmt.Errorf("%w: %w", ErrBadLine, err)
	}
	if l.Version != "2.0" { // a bare {"envelope":…}, or any other JSON
		return Frame{}, fmt.Errorf("%w: no \"jsonrpc\":\"2.0\"", ErrBadLine)
	}
	if l.Method != "receive" {
		return Frame{}, ErrNotReceive
	}
	if l.Error != nil && l.Error.Code != 0 {
		return Frame{Error: l.Error.Message}, nil
	}
	if l.Params == nil {
		return Frame{}, fmt.Errorf("%w: receive line without params", ErrBadLine)
	}
	return *l.Params, nil
}
