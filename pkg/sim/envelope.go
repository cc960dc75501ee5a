package sim

// The wire structs of one websocket frame, in signal-cli 0.14.x's field order
// (docs/wire-format.md §1). Pointers are the fields that may be null; omitempty marks the
// fields that appear only when set.

// frame is one websocket text frame: the raw params of a JSON-RPC "receive" notification.
// signal-cli builds it as a HashMap of account, exception and envelope, which Jackson writes
// in the map's order: exception, envelope, account (their hash buckets, 0, 2 and 14).
type frame struct {
	Exception *exception `json:"exception,omitempty"`
	Envelope  envelope   `json:"envelope"`
	Account   string     `json:"account"`
}

// exception is signal-cli's JsonError: the message and the simple class name of what it
// could not decrypt or handle the message for.
type exception struct {
	Message string `json:"message"`
	Type    string `json:"type"`
}

type envelope struct {
	Source                   *string         `json:"source"`
	SourceNumber             *string         `json:"sourceNumber"`
	SourceUUID               *string         `json:"sourceUuid"`
	SourceName               *string         `json:"sourceName"`
	SourceDevice             int             `json:"sourceDevice"`
	Timestamp                int64           `json:"timestamp"`
	ServerReceivedTimestamp  int64           `json:"serverReceivedTimestamp"`
	ServerDeliveredTimestamp int64           `json:"serverDeliveredTimestamp"`
	DataMessage              *dataMessage    `json:"dataMessage,omitempty"`
	EditMessage              *editMessage    `json:"editMessage,omitempty"`
	SyncMessage              *syncMessage    `json:"syncMessage,omitempty"`
	ReceiptMessage           *receiptMessage `json:"receiptMessage,omitempty"`
	TypingMessage            *typingMessage  `json:"typingMessage,omitempty"`
}

type dataMessage struct {
	Timestamp          int64            `json:"timestamp"`
	Message            *string          `json:"message"`
	ExpiresInSeconds   int              `json:"expiresInSeconds"`
	IsExpirationUpdate bool             `json:"isExpirationUpdate"`
	ViewOnce           bool             `json:"viewOnce"`
	Reaction           *reaction        `json:"reaction,omitempty"`
	Mentions           []wireMention    `json:"mentions,omitempty"`
	Attachments        []wireAttachment `json:"attachments,omitempty"`
	RemoteDelete       *remoteDelete    `json:"remoteDelete,omitempty"`
	PollCreate         *pollCreate      `json:"pollCreate,omitempty"`
	PollVote           *pollVote        `json:"pollVote,omitempty"`
	PollTerminate      *pollTerminate   `json:"pollTerminate,omitempty"`
	GroupInfo          *groupInfo       `json:"groupInfo,omitempty"`
	StoryContext       *storyContext    `json:"storyContext,omitempty"`
	PinMessage         *pinMessage      `json:"pinMessage,omitempty"`
	UnpinMessage       *targetRef       `json:"unpinMessage,omitempty"`
	AdminDelete        *targetRef       `json:"adminDelete,omitempty"`
}

// The members of a data message that is no text, in signal-cli's records' order
// (JsonRemoteDelete, JsonPollCreate, JsonPollVote, JsonPollTerminate, JsonStoryContext,
// JsonPinMessage, JsonUnpinMessage, JsonAdminDelete). Author fields follow
// RecipientAddress: the deprecated one is the number, else the uuid; the number is null
// when hidden.
type remoteDelete struct {
	Timestamp int64 `json:"timestamp"`
}

type pollCreate struct {
	Question      string   `json:"question"`
	AllowMultiple bool     `json:"allowMultiple"`
	Options       []string `json:"options"`
}

type pollVote struct {
	Author              string  `json:"author"`
	AuthorNumber        *string `json:"authorNumber"`
	AuthorUUID          string  `json:"authorUuid"`
	TargetSentTimestamp int64   `json:"targetSentTimestamp"`
	OptionIndexes       []int   `json:"optionIndexes"`
	VoteCount           int     `json:"voteCount"`
}

type pollTerminate struct {
	TargetSentTimestamp int64 `json:"targetSentTimestamp"`
}

type storyContext struct {
	AuthorNumber  *string `json:"authorNumber"`
	AuthorUUID    string  `json:"authorUuid"`
	SentTimestamp int64   `json:"sentTimestamp"`
}

// targetRef is JsonUnpinMessage and JsonAdminDelete: the message acted on.
type targetRef struct {
	TargetAuthor        string  `json:"targetAuthor"`
	TargetAuthorNumber  *string `json:"targetAuthorNumber"`
	TargetAuthorUUID    string  `json:"targetAuthorUuid"`
	TargetSentTimestamp int64   `json:"targetSentTimestamp"`
}

type pinMessage struct {
	targetRef
	PinDurationSeconds int64 `json:"pinDurationSeconds"`
}

type groupInfo struct {
	GroupID   string  `json:"groupId"`
	GroupName *string `json:"groupName"`
	Revision  int     `json:"revision"`
	Type      string  `json:"type"`
}

type wireAttachment struct {
	ContentType     string  `json:"contentType"`
	Filename        *string `json:"filename"`
	ID              string  `json:"id"`
	Size            int     `json:"size"`
	Width           *int    `json:"width"`
	Height          *int    `json:"height"`
	Caption         *string `json:"caption"`
	UploadTimestamp int64   `json:"uploadTimestamp"`
	IsVoiceNote     *bool   `json:"isVoiceNote,omitempty"` // newer than signal-cli 0.14.6 only: KindVoiceNote
}

type reaction struct {
	Emoji               string  `json:"emoji"`
	TargetAuthor        string  `json:"targetAuthor"`
	TargetAuthorNumber  *string `json:"targetAuthorNumber"` // null when the author hides it
	TargetAuthorUUID    string  `json:"targetAuthorUuid"`
	TargetSentTimestamp int64   `json:"targetSentTimestamp"`
	IsRemove            bool    `json:"isRemove"`
}

// wireMention is signal-cli's JsonMention: name is the legacy identifier (the number, else the
// uuid); start and length count UTF-16 code units of the message, and cover its U+FFFC
// placeholder.
type wireMention struct {
	Name   string  `json:"name"`
	Number *string `json:"number"`
	UUID   string  `json:"uuid"`
	Start  int     `json:"start"`
	Length int     `json:"length"`
}

type editMessage struct {
	TargetSentTimestamp int64       `json:"targetSentTimestamp"`
	DataMessage         dataMessage `json:"dataMessage"`
}

// syncMessage carries sentMessage, whose data-message fields are flattened into it
// (@JsonUnwrapped in signal-cli).
type syncMessage struct {
	SentMessage *sentMessage `json:"sentMessage,omitempty"`
}

type sentMessage struct {
	Destination       *string `json:"destination"`
	DestinationNumber *string `json:"destinationNumber"`
	DestinationUUID   *string `json:"destinationUuid"`
	dataMessage
}

type receiptMessage struct {
	When       int64   `json:"when"`
	IsDelivery bool    `json:"isDelivery"`
	IsRead     bool    `json:"isRead"`
	IsViewed   bool    `json:"isViewed"`
	Timestamps []int64 `json:"timestamps"`
}

type typingMessage struct {
	Action    string `json:"action"`
	Timestamp int64  `json:"timestamp"`
	GroupID   string `json:"groupId,omitempty"`
}
