package sim

import "fmt"

// Kind is the kind of envelope a delivered Message becomes.
type Kind int

// The envelope kinds of docs/wire-format.md §1.
const (
	KindText           Kind = iota // dataMessage with text (and any attachments)
	KindReceipt                    // receiptMessage; Text "read" or "viewed" picks the type, else delivery
	KindTyping                     // typingMessage; Text "STOPPED" stops, else STARTED
	KindSync                       // a sync "sent" transcript: source = bot number, syncMessage.sentMessage (see Message.To)
	KindReaction                   // dataMessage.reaction, message null; Text is the emoji (default 👍)
	KindGroupUpdate                // dataMessage, message null, groupInfo.type UPDATE
	KindAttachmentOnly             // dataMessage, message null, attachments
	KindEdit                       // editMessage{targetSentTimestamp, dataMessage}
	// KindUndecryptable is a message signal-cli could not decrypt: an exception beside a
	// header-only envelope. Text "untrusted" makes it an UntrustedIdentityException (the
	// sender's safety number changed), else a ProtocolInvalidMessageException (a broken session).
	KindUndecryptable
)

// lastKind is the highest Kind.
const lastKind = KindUndecryptable

// name returns the kind's name in control-endpoint JSON, or "" for an unknown kind.
func (k Kind) name() string {
	switch k {
	case KindText:
		return "text"
	case KindReceipt:
		return "receipt"
	case KindTyping:
		return "typing"
	case KindSync:
		return "sync"
	case KindReaction:
		return "reaction"
	case KindGroupUpdate:
		return "group_update"
	case KindAttachmentOnly:
		return "attachment_only"
	case KindEdit:
		return "edit"
	case KindUndecryptable:
		return "undecryptable"
	}
	return ""
}

// String returns the kind's name, such as "text" or "group_update".
func (k Kind) String() string {
	if n := k.name(); n != "" {
		return n
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) {
	n := k.name()
	if n == "" {
		return nil, fmt.Errorf("unknown message kind %d", int(k))
	}
	return []byte(n), nil
}

// UnmarshalText reads a kind's name; the empty name is KindText.
func (k *Kind) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*k = KindText
		return nil
	}
	for c := KindText; c <= lastKind; c++ {
		if c.name() == string(b) {
			*k = c
			return nil
		}
	}
	return fmt.Errorf("unknown message kind %q", b)
}
