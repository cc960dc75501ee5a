package sim

// fillKind sets the data message of the kinds that are no text (KindPollCreate …
// KindVoiceNote); it reports false for any other kind.
func (s *Sim) fillKind(env *envelope, m Message, g *Group) bool {
	ts := env.Timestamp
	dm := s.dataMessage(ts, nil, g, "DELIVER", nil)
	switch m.Kind {
	case KindPollCreate:
		dm.PollCreate = &pollCreate{Question: m.Text, Options: append([]string{}, m.Options...)}
	case KindPollVote:
		a := s.targetRef(m, ts)
		dm.PollVote = &pollVote{
			Author: a.TargetAuthor, AuthorNumber: a.TargetAuthorNumber, AuthorUUID: a.TargetAuthorUUID,
			TargetSentTimestamp: a.TargetSentTimestamp, OptionIndexes: []int{0}, VoteCount: 1,
		}
	case KindPollTerminate:
		dm.PollTerminate = &pollTerminate{TargetSentTimestamp: s.target(m, ts)}
	case KindPin:
		dm.PinMessage = &pinMessage{targetRef: s.targetRef(m, ts), PinDurationSeconds: 86400}
	case KindUnpin:
		r := s.targetRef(m, ts)
		dm.UnpinMessage = &r
	case KindAdminDelete:
		r := s.targetRef(m, ts)
		dm.AdminDelete = &r
	case KindRemoteDelete:
		dm.RemoteDelete = &remoteDelete{Timestamp: s.target(m, ts)}
	case KindStoryReply:
		r := s.targetRef(m, ts)
		dm.Message = strPtr(m.Text)
		dm.StoryContext = &storyContext{AuthorNumber: r.TargetAuthorNumber, AuthorUUID: r.TargetAuthorUUID, SentTimestamp: r.TargetSentTimestamp}
	case KindVoiceNote:
		voice := true
		a := s.wireAttachment(ts, InAttachment{ContentType: "audio/aac", Data: voiceNoteData, Caption: m.Text})
		a.IsVoiceNote = &voice
		dm.Attachments = []wireAttachment{a}
	default:
		return false
	}
	env.DataMessage = dm
	return true
}

// voiceNoteData stands for a voice note's audio: an ADTS frame header of AAC, which is all
// signal-cli looks at (nothing: it takes the type the sender gave).
var voiceNoteData = []byte{0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc}

// targetRef names the message m acts on: by m.TargetAuthor ("" the bot) at m's target.
func (s *Sim) targetRef(m Message, ts int64) targetRef {
	who := m.TargetAuthor
	if who == "" {
		who = s.number
	}
	a := authorOf(who)
	return targetRef{TargetAuthor: who, TargetAuthorNumber: a.number, TargetAuthorUUID: a.uuid, TargetSentTimestamp: s.target(m, ts)}
}
