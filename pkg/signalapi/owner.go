package signalapi

// ownerMessage reads a sync message of envelope e in owner mode. A "sent"
// transcript is a message the account sent from another of its devices: its
// envelope's source is the account and sourceDevice the device that sent it
// (1 is the phone; any linked device counts alike). It is the owner's
// message when it went to a group (groupInfo, all destinations null) or to
// the account itself (Note-to-Self: the destination is the account's number,
// or its uuid, which is the envelope's sourceUuid). Read lists, contact and
// blocked syncs, and transcripts of edits or stories, are skipped.
func ownerMessage(e *Envelope, account string) (Incoming, Skip) {
	sm := e.SyncMessage.SentMessage
	number, uuid := deref(e.SourceNumber), deref(e.SourceUUID)
	switch {
	case sm == nil:
		return Incoming{}, SkipSync
	case number == "" || (account != "" && number != account):
		return Incoming{}, SkipSync // a transcript from another account cannot be ours to answer
	case sm.EditMessage != nil:
		return Incoming{}, SkipEdit
	}
	in := Incoming{SenderNumber: number, SenderUUID: uuid, SenderName: deref(e.SourceName), Timestamp: e.Timestamp, FromOwner: true}
	if sm.GroupInfo == nil {
		if !toSelf(sm, number, uuid) {
			return Incoming{}, SkipOwnerDirect
		}
		in.NoteToSelf = true
	}
	return readData(in, &sm.DataMessage)
}

// toSelf reports whether a transcript's destination is the account itself.
func toSelf(sm *SentMessage, number, uuid string) bool {
	for _, d := range []*string{sm.DestinationNumber, sm.DestinationUUID, sm.Destination} {
		if d != nil && *d != "" && (*d == number || *d == uuid) {
			return true
		}
	}
	return false
}
