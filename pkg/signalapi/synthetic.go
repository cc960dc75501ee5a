package signalapi

import (
	"encoding/json"
	"fmt"
)

// TextFrame builds the frame the REST API would deliver for a text message
// from sender to the bot's account, in group groupID (signal-cli id; empty
// for a direct message). It serves /_selftest's synthetic frames.
func TextFrame(account, senderNumber, senderUUID, senderName, groupID, text string, ts int64) []byte {
	dm := &DataMessage{Timestamp: ts, Message: &text}
	if groupID != "" {
		dm.GroupInfo = &GroupInfo{GroupID: groupID, Type: "DELIVER"}
	}
	dev := 1
	f := Frame{Account: account, Envelope: &Envelope{
		Source: &senderNumber, SourceNumber: &senderNumber, SourceUUID: &senderUUID, SourceName: &senderName,
		SourceDevice: &dev, Timestamp: ts, DataMessage: dm,
	}}
	b, err := json.Marshal(f)
	if err != nil {
		panic(fmt.Sprintf("encode synthetic frame: %v", err)) // plain structs of strings cannot fail
	}
	return b
}
