package signalapi

import (
	"strings"

	"signal-bot/pkg/signalid"
)

// Incoming is a text message from a user, the only kind of frame the bot answers.
type Incoming struct {
	SenderNumber string // empty when the sender hides their number
	SenderUUID   string
	SenderName   string
	GroupID      string // signal-cli's group id; empty in a direct chat
	GroupName    string
	Text         string
	Timestamp    int64
	// Mentions are the @mentions in Text, whose U+FFFC placeholders they
	// stand for (AfterMentions).
	Mentions []Mentioned
	// Reaction is set for a frame skipped as SkipReaction: the emoji and the
	// message it is on.
	Reaction *Reacted
	// FromOwner marks a message the account itself sent from one of its
	// devices (the phone, or another linked device): a sync "sent" transcript
	// that ClassifyOwner took for a command. The sender is then the account.
	FromOwner bool
	// NoteToSelf marks an owner's message in Note-to-Self (its destination is
	// the account); the reply goes to the account's own number, with
	// notify_self so that the phone shows it.
	NoteToSelf bool
}

// ReplyTo is the /v2/send recipient that answers this message: the group,
// else the sender's number, else (number hidden) the sender's UUID.
func (in Incoming) ReplyTo() string {
	switch {
	case in.GroupID != "":
		return signalid.RESTGroupID(in.GroupID)
	case in.SenderNumber != "":
		return in.SenderNumber
	default:
		return in.SenderUUID
	}
}

// Quote is the quote of this message in a reply: its timestamp, its author,
// its text and the mentions in it. The author is the uuid, else the number: signal-cli resolves
// the author before it sends, a uuid locally, a number it does not know by a
// lookup at Signal that refuses the whole send when the number is not
// registered (as /_selftest's made-up identity is not).
func (in Incoming) Quote() *Quote {
	author := in.SenderUUID
	if author == "" {
		author = in.SenderNumber
	}
	return &Quote{Timestamp: in.Timestamp, Author: author, Text: in.Text, Mentions: in.Mentions}
}

// SenderKey identifies the sender for locks, cooldowns and tallies. The UUID is
// preferred: it stays the same when the number is hidden or changes.
func (in Incoming) SenderKey() string {
	if in.SenderUUID != "" {
		return in.SenderUUID
	}
	return in.SenderNumber
}

// Skip says why a frame gets no reply; the empty Skip means "answer it".
type Skip string

// Reasons a frame is ignored. Classify gives the first group; the bot gives
// the last three, for what Classify cannot see.
const (
	SkipNone        Skip = ""
	SkipError       Skip = "error frame" // the REST API's {"error":…}
	SkipException   Skip = "exception"   // signal-cli could not decrypt or handle the message
	SkipNoEnvelope  Skip = "no envelope"
	SkipOtherAcct   Skip = "other account"
	SkipOwn         Skip = "own message"
	SkipReceipt     Skip = "receipt"
	SkipTyping      Skip = "typing"
	SkipSync        Skip = "sync"
	SkipEdit        Skip = "edit"
	SkipOther       Skip = "not a data message" // stories, calls
	SkipReaction    Skip = "reaction"
	SkipGroupUpdate Skip = "group update"
	SkipNoText      Skip = "no text"
	SkipNoSender    Skip = "no sender"

	// Data messages that are not texts, whatever text they carry.
	SkipRemoteDelete  Skip = "remote delete" // the sender deleted a message for everyone
	SkipAdminDelete   Skip = "admin delete"  // a group admin deleted a message
	SkipPollCreate    Skip = "poll"          // a new poll: its question and options are no command
	SkipPollVote      Skip = "poll vote"     // a vote on a poll
	SkipPollTerminate Skip = "poll end"      // a poll closed
	SkipPin           Skip = "pin"           // a message pinned
	SkipUnpin         Skip = "unpin"         // a pin taken off
	SkipStoryReply    Skip = "story reply"   // a reply to a story: it belongs to the story, not the chat
	SkipVoiceNote     Skip = "voice note"    // a voice note, with no text

	// SkipOwnerDirect is the owner's message in a direct chat with someone
	// else: a reply there would speak as the owner to that person.
	SkipOwnerDirect Skip = "owner's direct message"

	SkipUndecodable Skip = "undecodable"   // not JSON of a frame's shape
	SkipNotCommand  Skip = "not a command" // a text that is no !command
	SkipDuplicate   Skip = "duplicate"     // a command already answered
)

// skipLabels are every Skip but SkipNone with its metric label, in
// Classify's order: the fixed label set of signal_bot_frames_skipped_total.
var skipLabels = []struct {
	skip  Skip
	label string
}{
	{SkipError, "error"}, {SkipException, "exception"}, {SkipNoEnvelope, "no_envelope"},
	{SkipOtherAcct, "other_account"}, {SkipReceipt, "receipt"}, {SkipTyping, "typing"},
	{SkipSync, "sync"}, {SkipEdit, "edit"}, {SkipOther, "other_message"}, {SkipNoSender, "no_sender"},
	{SkipOwn, "own"}, {SkipOwnerDirect, "owner_direct"}, {SkipGroupUpdate, "group_update"},
	{SkipRemoteDelete, "remote_delete"}, {SkipAdminDelete, "admin_delete"}, {SkipPollCreate, "poll_create"},
	{SkipPollVote, "poll_vote"}, {SkipPollTerminate, "poll_terminate"}, {SkipPin, "pin"}, {SkipUnpin, "unpin"},
	{SkipStoryReply, "story_reply"}, {SkipReaction, "reaction"}, {SkipVoiceNote, "voice_note"}, {SkipNoText, "no_text"}, {SkipUndecodable, "undecodable"}, {SkipNotCommand, "not_command"},
	{SkipDuplicate, "duplicate"},
}

// Label is s's label in metrics: lower case, no spaces; "" for SkipNone and
// for a Skip that is not one of the constants.
func (s Skip) Label() string {
	for _, l := range skipLabels {
		if l.skip == s {
			return l.label
		}
	}
	return ""
}

// SkipLabels lists the label of every skip reason, in Classify's order.
func SkipLabels() []string {
	out := make([]string, len(skipLabels))
	for i, l := range skipLabels {
		out[i] = l.label
	}
	return out
}

// Classify turns a frame for account into an Incoming, or says why it is
// skipped. Every sync message is skipped: the account's own messages are
// never answered (OWNER_COMMANDS=off).
func Classify(f Frame, account string) (Incoming, Skip) { return classify(f, account, false) }

// ClassifyOwner is Classify in owner mode (OWNER_COMMANDS=on): a sync "sent"
// transcript from the account, in a group or in Note-to-Self, is read like a
// data message from the account (Incoming.FromOwner). Other sync messages,
// and the owner's messages to other people, are still skipped.
func ClassifyOwner(f Frame, account string) (Incoming, Skip) { return classify(f, account, true) }

func classify(f Frame, account string, owner bool) (Incoming, Skip) {
	switch {
	case f.Error != "":
		return Incoming{}, SkipError
	case f.Exc != nil:
		return Incoming{}, SkipException
	}
	e := f.Envelope
	if e == nil {
		return Incoming{}, SkipNoEnvelope
	}
	if account != "" && f.Account != "" && f.Account != account {
		return Incoming{}, SkipOtherAcct
	}
	switch {
	case e.ReceiptMessage != nil:
		return Incoming{}, SkipReceipt
	case e.TypingMessage != nil:
		return Incoming{}, SkipTyping
	case e.SyncMessage != nil && owner:
		return ownerMessage(e, account)
	case e.SyncMessage != nil:
		return Incoming{}, SkipSync
	case e.EditMessage != nil:
		return Incoming{}, SkipEdit
	case e.DataMessage == nil:
		return Incoming{}, SkipOther
	}
	in := Incoming{
		SenderNumber: deref(e.SourceNumber),
		SenderUUID:   deref(e.SourceUUID),
		SenderName:   deref(e.SourceName),
		Timestamp:    e.Timestamp,
	}
	if in.SenderNumber == "" && in.SenderUUID == "" {
		return Incoming{}, SkipNoSender
	}
	if account != "" && in.SenderNumber == account {
		return Incoming{}, SkipOwn
	}
	return readData(in, e.DataMessage)
}

// readData reads a data message's group, reaction, text and mentions into
// in. A message of another kind than a text (kindOf) is skipped by its kind
// before any of its text is read.
func readData(in Incoming, d *DataMessage) (Incoming, Skip) {
	if g := d.GroupInfo; g != nil {
		if g.Type == "UPDATE" {
			return Incoming{}, SkipGroupUpdate
		}
		in.GroupID, in.GroupName = g.GroupID, g.GroupName
	}
	if k := kindOf(d); k != SkipNone {
		return Incoming{}, k
	}
	if d.Reaction != nil {
		in.Reaction = reactedOf(d.Reaction)
		return in, SkipReaction
	}
	in.Text = strings.TrimSpace(deref(d.Message))
	if in.Text == "" {
		return Incoming{}, SkipNoText
	}
	in.Mentions = mentionsOf(d.Mentions, deref(d.Message))
	return in, SkipNone
}

// kindOf is the skip of a data message that is no text (a deletion, a poll,
// a pin, a reply to a story, a voice note), SkipNone for a text or a
// reaction. A real message has at most one of these; the first found decides.
func kindOf(d *DataMessage) Skip {
	switch {
	case bool(d.RemoteDelete):
		return SkipRemoteDelete
	case bool(d.AdminDelete):
		return SkipAdminDelete
	case bool(d.PollCreate):
		return SkipPollCreate
	case bool(d.PollVote):
		return SkipPollVote
	case bool(d.PollTerminate):
		return SkipPollTerminate
	case bool(d.PinMessage):
		return SkipPin
	case bool(d.UnpinMessage):
		return SkipUnpin
	case bool(d.StoryContext):
		return SkipStoryReply
	case voiceNote(d.Attachments):
		return SkipVoiceNote
	}
	return SkipNone
}

// voiceNote reports whether an attachment is a voice note.
func voiceNote(atts []Attachment) bool {
	for _, a := range atts {
		if a.IsVoiceNote {
			return true
		}
	}
	return false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
