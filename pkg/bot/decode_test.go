package bot

import (
	"testing"

	"signal-bot/pkg/journal"
	"signal-bot/pkg/signalapi"
)

// decode reads a frame once: the sender's key for its turn and the message
// dispatch answers come from the same reading. Only a command takes a turn.
func TestDecode(t *testing.T) {
	const account = "+48500000000"
	d := testDeps(t)
	d.API = testAPI(t, noServer, account, nil)
	b := New(d)
	tests := []struct {
		name     string
		raw      string
		wantKey  string
		wantSkip signalapi.Skip
		wantErr  bool
		wantText string
		wantCmd  string
	}{
		{"direct", `{"envelope":{"sourceNumber":"+48600000001","sourceUuid":"u-1","timestamp":5,"dataMessage":{"message":" !pomoc "}},"account":"` + account + `"}`,
			"u-1", signalapi.SkipNone, false, "!pomoc", "pomoc"},
		{"hidden number", `{"envelope":{"sourceUuid":"u-2","dataMessage":{"message":"!ja"}}}`, "u-2", signalapi.SkipNone, false, "!ja", "ja"},
		{"plain text takes no turn", `{"envelope":{"sourceUuid":"u-2","dataMessage":{"message":"hello"}}}`, "", signalapi.SkipNone, false, "hello", ""},
		{"receipt", `{"envelope":{"sourceUuid":"u-1","receiptMessage":{}}}`, "", signalapi.SkipReceipt, false, "", ""},
		{"error frame", `{"error":"Failed to decrypt"}`, "", signalapi.SkipError, false, "", ""},
		{"exception", `{"exception":{"message":"m","type":"ProtocolNoSessionException"},"envelope":{"sourceUuid":"u-1","timestamp":5}}`, "", signalapi.SkipException, false, "", ""},
		{"not json", `not json`, "", signalapi.SkipNone, true, "", ""},
		{"wrong type", `{"envelope":{"sourceNumber":42}}`, "", signalapi.SkipNone, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, m, err := b.decode([]byte(tt.raw), signalapi.ViaWebsocket)
			if err != nil {
				t.Fatalf("decode(%s): %v; want a Message", tt.raw, err)
			}
			if key != tt.wantKey || m.Skip != tt.wantSkip || (m.Err != nil) != tt.wantErr || m.In.Text != tt.wantText ||
				m.Command != tt.wantCmd || m.IsCommand != (tt.wantCmd != "") || m.Size != len(tt.raw) {
				t.Errorf("Decode(%s) = %q, %+v; want key %q, skip %q, error %v, text %q, command %q", tt.raw, key, m, tt.wantKey, tt.wantSkip, tt.wantErr, tt.wantText, tt.wantCmd)
			}
		})
	}
}

// dedupKey is the duplicate filter's key for commands only, and a bot built
// with Seen pairs treats them as already answered.
func TestDedupKeyAndSeen(t *testing.T) {
	const account = "+48500000000"
	d := testDeps(t)
	d.API, d.Seen = testAPI(t, noServer, account, nil), []journal.Seen{{Sender: "u-1", Timestamp: 5}}
	b := New(d)
	tests := []struct {
		name   string
		raw    string
		want   journal.Seen
		wantOK bool
	}{
		{"command", `{"envelope":{"sourceUuid":"u-1","timestamp":5,"dataMessage":{"message":"!pomoc"}}}`, journal.Seen{Sender: "u-1", Timestamp: 5}, true},
		{"chatter", `{"envelope":{"sourceUuid":"u-1","timestamp":6,"dataMessage":{"message":"hello"}}}`, journal.Seen{}, false},
		{"receipt", `{"envelope":{"sourceUuid":"u-1","receiptMessage":{}}}`, journal.Seen{}, false},
		{"not json", `not json`, journal.Seen{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, msg, _ := b.decode([]byte(tt.raw), signalapi.ViaWebsocket)
			if got, ok := dedupKey(msg); got != tt.want || ok != tt.wantOK {
				t.Errorf("dedupKey = %+v, %v; want %+v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
	if b.recent.add("u-1", 5) {
		t.Error("a Seen pair passed the duplicate filter as new")
	}
	if !b.recent.add("u-1", 7) {
		t.Error("a new pair of a seen sender did not pass the duplicate filter")
	}
}
