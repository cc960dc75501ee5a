package bot

import (
	"testing"

	"signal-bot/pkg/signalapi"
)

// Decode reads a frame once: the sender's key for its turn and the message
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
		{"not json", `not json`, "", signalapi.SkipNone, true, "", ""},
		{"wrong type", `{"envelope":{"sourceNumber":42}}`, "", signalapi.SkipNone, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, m := b.Decode([]byte(tt.raw))
			if key != tt.wantKey || m.Skip != tt.wantSkip || (m.Err != nil) != tt.wantErr || m.In.Text != tt.wantText ||
				m.Command != tt.wantCmd || m.IsCommand != (tt.wantCmd != "") || m.Size != len(tt.raw) {
				t.Errorf("Decode(%s) = %q, %+v; want key %q, skip %q, error %v, text %q, command %q", tt.raw, key, m, tt.wantKey, tt.wantSkip, tt.wantErr, tt.wantText, tt.wantCmd)
			}
		})
	}
}

// DedupKey is the duplicate filter's key for commands only, and a bot built
// with Seen pairs treats them as already answered.
func TestDedupKeyAndSeen(t *testing.T) {
	const account = "+48500000000"
	d := testDeps(t)
	d.API, d.Seen = testAPI(t, noServer, account, nil), []Seen{{Sender: "u-1", Timestamp: 5}}
	b := New(d)
	tests := []struct {
		name   string
		raw    string
		want   Seen
		wantOK bool
	}{
		{"command", `{"envelope":{"sourceUuid":"u-1","timestamp":5,"dataMessage":{"message":"!pomoc"}}}`, Seen{"u-1", 5}, true},
		{"chatter", `{"envelope":{"sourceUuid":"u-1","timestamp":6,"dataMessage":{"message":"hello"}}}`, Seen{}, false},
		{"receipt", `{"envelope":{"sourceUuid":"u-1","receiptMessage":{}}}`, Seen{}, false},
		{"not json", `not json`, Seen{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, msg := b.Decode([]byte(tt.raw))
			if got, ok := DedupKey(msg); got != tt.want || ok != tt.wantOK {
				t.Errorf("DedupKey = %+v, %v; want %+v, %v", got, ok, tt.want, tt.wantOK)
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
