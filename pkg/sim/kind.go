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

	// The data messages that are no texts (signal-cli's JsonDataMessage members). Text goes
	// into the kind's own text field, where it has one, and message stays null, as Signal
	// clients send them: the question of a poll (Options its options), the text of a reply to
	// a story, the caption of a voice note. Target and TargetAuthor name the message a vote,
	// a pin, a deletion or a poll's end is about, or the story replied to.
	KindPollCreate    // dataMessage.pollCreate{question, allowMultiple, options}
	KindPollVote      // dataMessage.pollVote on the poll at Target by TargetAuthor
	KindPollTerminate // dataMessage.pollTerminate{targetSentTimestamp}
	KindPin           // dataMessage.pinMessage
	KindUnpin         // dataMessage.unpinMessage
	KindAdminDelete   // dataMessage.adminDelete: a group admin deleted someone's message
	KindRemoteDelete  // dataMessage.remoteDelete{timestamp}: the sender deleted their message
	KindStoryReply    // dataMessage with text and storyContext: a reply to a story
	// KindVoiceNote is an audio attachment with isVoiceNote, which signal-cli writes after
	// 0.14.6; before, a voice note is a KindAttachmentOnly with an audio file.
	KindVoiceNote
)

// lastKind is the highest Kind.
const lastKind = KindVoiceNote

// kindNames are the kinds' names in control-endpoint JSON, by Kind.
var kindNames = [...]string{
	KindText: "text", KindReceipt: "receipt", KindTyping: "typing", KindSync: "sync", KindReaction: "reaction",
	KindGroupUpdate: "group_update", KindAttachmentOnly: "attachment_only", KindEdit: "edit",
	KindUndecryptable: "undecryptable", KindPollCreate: "poll_create", KindPollVote: "poll_vote",
	KindPollTerminate: "poll_terminate", KindPin: "pin", KindUnpin: "unpin", KindAdminDelete: "admin_delete",
	KindRemoteDelete: "remote_delete", KindStoryReply: "story_reply", KindVoiceNote: "voice_note",
}

// name returns the kind's name in control-endpoint JSON, or "" for an unknown kind.
func (k Kind) name() string {
	if k < 0 || int(k) >= len(kindNames) {
		return ""
	}
	return kindNames[k]
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
