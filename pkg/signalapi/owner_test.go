package signalapi

import "testing"

// The owner's sync "sent" transcripts as signal-cli 0.14 writes them
// (JsonSyncDataMessage: destination, destinationNumber, destinationUuid, the
// data message's fields flattened in): read as the owner's messages in a
// group and in Note-to-Self in owner mode, skipped otherwise.
func TestClassifyOwner(t *testing.T) {
	const ownUUID = "9d0c3e2a-5b7f-4a1e-8c6d-2f4b6a8c0e1f"
	phone := `"source":"` + bot + `","sourceNumber":"` + bot + `","sourceUuid":"` + ownUUID + `","sourceName":"Owner","sourceDevice":1,"timestamp":5,"serverReceivedTimestamp":6,"serverDeliveredTimestamp":7`
	desktop := `"source":"` + bot + `","sourceNumber":"` + bot + `","sourceUuid":"` + ownUUID + `","sourceName":"Owner","sourceDevice":3,"timestamp":5`
	sent := func(header, dest, data string) []byte {
		return frame(header + `,"syncMessage":{"sentMessage":{` + dest + `"timestamp":5,` + data + `}}`)
	}
	const noDest = `"destination":null,"destinationNumber":null,"destinationUuid":null,`
	self := `"destination":"` + bot + `","destinationNumber":"` + bot + `","destinationUuid":"` + ownUUID + `",`
	selfByUUID := `"destination":"` + ownUUID + `","destinationNumber":null,"destinationUuid":"` + ownUUID + `",`
	friend := `"destination":"+4915112345678","destinationNumber":"+4915112345678","destinationUuid":"1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11",`
	group := `"message":"!pomoc","expiresInSeconds":0,"isExpirationUpdate":false,"viewOnce":false,"groupInfo":{"groupId":"` + gid + `","groupName":"G","revision":3,"type":"DELIVER"}`
	text := `"message":" !pomoc ","expiresInSeconds":0,"isExpirationUpdate":false,"viewOnce":false`
	tests := []struct {
		name      string
		raw       []byte
		wantSkip  Skip
		wantReply string
		wantSelf  bool
	}{
		{"group, from the phone", sent(phone, noDest, group), SkipNone, "group.UG1waStFZlBXbXN4aW9tTGU5TngyWEY5SE9FNDgzcDZpS2lGajY1aU13ST0=", false},
		{"group, from a linked desktop", sent(desktop, noDest, group), SkipNone, "group.UG1waStFZlBXbXN4aW9tTGU5TngyWEY5SE9FNDgzcDZpS2lGajY1aU13ST0=", false},
		{"note to self", sent(phone, self, text), SkipNone, bot, true},
		{"note to self, by uuid", sent(desktop, selfByUUID, text), SkipNone, bot, true},
		{"to a friend", sent(phone, friend, text), SkipOwnerDirect, "", false},
		{"group update", sent(phone, noDest, `"message":null,"groupInfo":{"groupId":"`+gid+`","type":"UPDATE"}`), SkipGroupUpdate, "", false},
		{"reaction", sent(phone, self, `"message":null,"reaction":{"emoji":"👍","targetSentTimestamp":1,"isRemove":false}`), SkipReaction, "", false},
		{"attachment only", sent(phone, self, `"message":null,"attachments":[{"contentType":"image/jpeg","id":"x.jpg","size":1}]`), SkipNoText, "", false},
		{"edit", sent(phone, self, `"message":null,"editMessage":{"targetSentTimestamp":1,"dataMessage":{"timestamp":5,"message":"!kot"}}`), SkipEdit, "", false},
		{"read list", frame(phone + `,"syncMessage":{"readMessages":[{"sender":"+4915112345678","timestamp":1}]}`), SkipSync, "", false},
		{"from another account", sent(alice+`,"timestamp":5`, noDest, group), SkipSync, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := DecodeFrame(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			if _, skip := Classify(f, bot); skip != SkipSync {
				t.Errorf("Classify() skip = %q; want %q with owner mode off", skip, SkipSync)
			}
			in, skip := ClassifyOwner(f, bot)
			if skip != tt.wantSkip {
				t.Fatalf("ClassifyOwner() skip = %q; want %q", skip, tt.wantSkip)
			}
			if skip != SkipNone {
				return
			}
			if !in.FromOwner || in.NoteToSelf != tt.wantSelf || in.ReplyTo() != tt.wantReply || in.Text != "!pomoc" ||
				in.SenderUUID != ownUUID || in.Timestamp != 5 {
				t.Errorf("ClassifyOwner() = %+v; want the owner's !pomoc, note to self %v, reply to %q", in, tt.wantSelf, tt.wantReply)
			}
		})
	}
}
