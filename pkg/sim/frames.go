package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"

	"signal-bot/pkg/signalid"
)

// Offsets of the server timestamps from the envelope timestamp, as in the examples of docs/wire-format.md §1.
const (
	serverReceivedOffset  = 120
	serverDeliveredOffset = 180
	uploadOffset          = -100
)

// buildFrame renders m as the frame the real server would send, and returns its timestamp.
func (s *Sim) buildFrame(m Message) ([]byte, int64, error) {
	ts := m.Timestamp
	if ts == 0 {
		ts = s.nextTimestamp()
	}
	var g *Group
	if m.Group != "" {
		rg, err := s.resolveGroup(m.Group)
		if err != nil {
			return nil, 0, fmt.Errorf("build %s frame: %w", m.Kind, err)
		}
		g = &rg
	}
	snd := senderOf(m)
	if m.Kind == KindSync {
		snd = sender{number: strPtr(s.number), uuid: UUIDOf(s.number), name: strPtr(m.Name)}
	}
	env := envelope{
		SourceNumber: snd.number, SourceUUID: &snd.uuid, SourceName: snd.name, SourceDevice: max(m.Device, 1),
		Timestamp: ts, ServerReceivedTimestamp: ts + serverReceivedOffset,
		ServerDeliveredTimestamp: ts + serverDeliveredOffset,
	}
	env.Source = snd.number
	if env.Source == nil {
		env.Source = &snd.uuid
	}
	if err := s.fillBody(&env, m, g); err != nil {
		return nil, 0, fmt.Errorf("build %s frame: %w", m.Kind, err)
	}
	b, err := encodeFrame(frame{Exception: exceptionOf(m, snd), Envelope: env, Account: s.number})
	if err != nil {
		return nil, 0, fmt.Errorf("build %s frame: %w", m.Kind, err)
	}
	return b, ts, nil
}

// fillBody sets the one message part of env that m's kind calls for.
func (s *Sim) fillBody(env *envelope, m Message, g *Group) error {
	ts := env.Timestamp
	switch m.Kind {
	case KindText:
		env.DataMessage = s.dataMessage(ts, strPtr(m.Text), g, "DELIVER", m.Attachments)
		mentions, err := mentionsOf(m.Text, m.Mentions)
		if err != nil {
			return err
		}
		env.DataMessage.Mentions = mentions
	case KindAttachmentOnly:
		atts := m.Attachments
		if len(atts) == 0 {
			atts = []InAttachment{{Data: placeholderPNG()}}
		}
		env.DataMessage = s.dataMessage(ts, nil, g, "DELIVER", atts)
	case KindReaction:
		emoji := m.Text
		if emoji == "" {
			emoji = "👍"
		}
		env.DataMessage = s.dataMessage(ts, nil, g, "DELIVER", nil)
		env.DataMessage.Reaction = s.reactionTo(m, emoji, ts)
	case KindGroupUpdate:
		if g == nil {
			return errors.New("a group update needs a group")
		}
		env.DataMessage = s.dataMessage(ts, nil, g, "UPDATE", nil)
	case KindEdit:
		dm := s.dataMessage(ts, strPtr(m.Text), g, "DELIVER", m.Attachments)
		env.EditMessage = &editMessage{TargetSentTimestamp: s.target(m, ts), DataMessage: *dm}
	case KindReceipt:
		env.ReceiptMessage = &receiptMessage{
			When: ts, IsDelivery: m.Text != "read" && m.Text != "viewed",
			IsRead: m.Text == "read", IsViewed: m.Text == "viewed", Timestamps: []int64{s.target(m, ts)},
		}
	case KindTyping:
		action := "STARTED"
		if m.Text == "STOPPED" {
			action = "STOPPED"
		}
		env.TypingMessage = &typingMessage{Action: action, Timestamp: ts}
		if g != nil {
			env.TypingMessage.GroupID = g.InternalID
		}
	case KindSync:
		env.SyncMessage = &syncMessage{SentMessage: s.sentMessage(ts, m, g)}
	case KindUndecryptable: // the header only: there is no content to put in it
	default:
		if !s.fillKind(env, m, g) {
			return fmt.Errorf("unknown message kind %d", int(m.Kind))
		}
	}
	return nil
}

// exceptionOf is the exception of an undecryptable message, nil for the other kinds, as
// signal-cli's IncomingMessageHandler makes it. A ProtocolInvalidMessageException wraps
// libsignal's InvalidMessageException, whose toString is its message; an
// UntrustedIdentityException's message names the sender by its ACI (RecipientAddress's
// identifier: the uuid, else the number).
func exceptionOf(m Message, snd sender) *exception {
	switch {
	case m.Kind != KindUndecryptable:
		return nil
	case m.Text == "untrusted":
		return &exception{Message: "Untrusted identity: " + snd.uuid, Type: "UntrustedIdentityException"}
	default:
		return &exception{
			Message: "org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed",
			Type:    "ProtocolInvalidMessageException",
		}
	}
}

// dataMessage builds a data message; groupType is "DELIVER" or "UPDATE".
func (s *Sim) dataMessage(ts int64, text *string, g *Group, groupType string, atts []InAttachment) *dataMessage {
	dm := &dataMessage{Timestamp: ts, Message: text}
	if g != nil {
		dm.GroupInfo = &groupInfo{GroupID: g.InternalID, GroupName: strPtr(g.Name), Revision: groupRevision, Type: groupType}
	}
	for _, a := range atts {
		dm.Attachments = append(dm.Attachments, s.wireAttachment(ts, a))
	}
	return dm
}

// sentMessage builds the sync transcript of a message the bot account sent, as signal-cli's
// JsonSyncDataMessage has it: to m's group (every destination null), else to m.To (the
// account itself for Note-to-Self), else to m's sender.
func (s *Sim) sentMessage(ts int64, m Message, g *Group) *sentMessage {
	sm := &sentMessage{dataMessage: *s.dataMessage(ts, strPtr(m.Text), g, "DELIVER", m.Attachments)}
	if g != nil {
		return sm
	}
	to := senderOf(m)
	switch {
	case signalid.IsUUID(m.To):
		to = sender{uuid: m.To}
	case m.To != "":
		to = sender{number: &m.To, uuid: UUIDOf(m.To)}
	}
	sm.DestinationNumber, sm.DestinationUUID = to.number, &to.uuid
	sm.Destination = to.number
	if sm.Destination == nil {
		sm.Destination = &to.uuid
	}
	return sm
}

// wireAttachment stores a and describes it as signal-cli does.
func (s *Sim) wireAttachment(ts int64, a InAttachment) wireAttachment {
	data := a.Data
	if data == nil {
		data = placeholderPNG()
	}
	mt, w, h := sniff(data)
	if a.ContentType != "" {
		mt = a.ContentType
	}
	if a.Width > 0 || a.Height > 0 {
		w, h = a.Width, a.Height
	}
	wa := wireAttachment{
		ContentType: mt, Filename: strPtr(a.Filename), ID: s.storeFile(data, mt), Size: len(data),
		Caption: strPtr(a.Caption), UploadTimestamp: ts + uploadOffset,
	}
	if w > 0 && h > 0 {
		wa.Width, wa.Height = &w, &h
	}
	return wa
}

// reactionTo is the reaction of m: emoji on the message of m.TargetAuthor ("" the bot) at
// m's target.
func (s *Sim) reactionTo(m Message, emoji string, ts int64) *reaction {
	who := m.TargetAuthor
	if who == "" {
		who = s.number
	}
	a := authorOf(who)
	r := &reaction{Emoji: emoji, TargetAuthor: who, TargetAuthorNumber: a.number, TargetAuthorUUID: a.uuid, TargetSentTimestamp: s.target(m, ts)}
	return r
}

// target returns the timestamp m refers to: m.Target, else the bot's last send, else just
// before ts.
func (s *Sim) target(m Message, ts int64) int64 {
	if m.Target != 0 {
		return m.Target
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n := len(s.sent); n > 0 {
		return s.sent[n-1].Timestamp
	}
	return ts - 1
}

// encodeFrame writes v as Jackson would: no HTML escaping, no trailing newline.
func encodeFrame(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// placeholderPNG returns a small 4×3 PNG for attachments given without data.
func placeholderPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	img.Set(0, 0, color.RGBA{R: 0xff, A: 0xff})
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}
