package sim

import "fmt"

// Kind is the kind of envelope a delivered Message becomes.
type Kind int

// The envelope kinds of signal-api.md §1.3.
const (
	KindText           Kind = iota // dataMessage with text (and any attachments)
	KindReceipt                    // receiptMessage; Text "read" or "viewed" picks the type, else delivery
	KindTyping                     // typingMessage; Text "STOPPED" stops, else STARTED
	KindSync                       // the bot's own send echoed: source = bot number, syncMessage.sentMessage
	KindReaction                   // dataMessage.reaction, message null; Text is the emoji (default 👍)
	KindGroupUpdate                // dataMessage, message null, groupInfo.type UPDATE
	KindAttachmentOnly             // dataMessage, message null, attachments
	KindEdit                       // editMessage{targetSentTimestamp, dataMessage}
)

// kindNames are the names of the kinds in control-endpoint JSON.
var kindNames = [...]string{
	KindText:           "text",
	KindReceipt:        "receipt",
	KindTyping:         "typing",
	KindSync:           "sync",
	KindReaction:       "reaction",
	KindGroupUpdate:    "group_update",
	KindAttachmentOnly: "attachment_only",
	KindEdit:           "edit",
}

// String returns the kind's name, such as "text" or "group_update".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) {
	if k < 0 || int(k) >= len(kindNames) {
		return nil, fmt.Errorf("unknown message kind %d", int(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a kind's name; the empty name is KindText.
func (k *Kind) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*k = KindText
		return nil
	}
	for i, n := range kindNames {
		if n == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown message kind %q", b)
}
