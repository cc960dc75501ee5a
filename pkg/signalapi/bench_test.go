package signalapi

import (
	"encoding/json"
	"testing"
)

// The per-frame cost of reading a group command and of encoding its reply's
// body: go test -run - -bench 'DecodeClassify|SendBody' -benchmem ./pkg/signalapi
func BenchmarkDecodeClassify(b *testing.B) {
	raw := frame(alice + `,"timestamp":1765000000000,"serverReceivedTimestamp":1765000000120,"serverDeliveredTimestamp":1765000000180,"dataMessage":{"timestamp":1765000000000,"message":"!pomoc","expiresInSeconds":0,"isExpirationUpdate":false,"viewOnce":false,"groupInfo":{"groupId":"` + gid + `","groupName":"rodzina","revision":7,"type":"DELIVER"}}`)
	b.ReportAllocs()
	for b.Loop() {
		f, err := DecodeFrame(raw)
		if err != nil {
			b.Fatal(err)
		}
		if _, skip := Classify(f, bot); skip != SkipNone {
			b.Fatal(skip)
		}
	}
}

func BenchmarkSendBody(b *testing.B) {
	out := Outgoing{Recipient: "group.UG1waStFZlBXbXN4aW9tTGU5TngyWEY5SE9FNDgzcDZpS2lGajY1aU13ST0=", Text: "Komendy w tym czacie: !pomoc, !kot, !cat, !ja"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(bodyOf(bot, out)); err != nil {
			b.Fatal(err)
		}
	}
}
