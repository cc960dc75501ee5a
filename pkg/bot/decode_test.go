package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

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

// A command after leading mentions of the bot (by its number, or by the uuid
// a group listing showed) is a command; after a mention of anyone else it is
// not. A 🔁 on a picture the bot remembers sending to that chat, within
// REPEAT_WINDOW, is that picture's command; on anything else it is a
// reaction, skipped.
func TestDecodeAddressedAndRepeat(t *testing.T) {
	const account, selfUUID, other = "+48500000000", "9d0c1f2e-3b7e-4c55-9a0b-5d1f0e2a7c99", "+48600000001"
	now := time.Unix(1_765_000_000, 0)
	d := testDeps(t)
	d.API, d.Reactor, d.RepeatWindow = testAPI(t, noServer, account, nil), reactorFunc(nil), time.Minute
	d.Now = func() time.Time { return now }
	b := New(d)
	b.LearnSelf([]signalapi.Group{{Members: []signalapi.Member{{Number: other, UUID: "u-9"}, {Number: account, UUID: selfUUID}}}})
	b.pictures.add(100, pictureSend{command: "kot", chat: other, at: now.Add(-30 * time.Second)})
	b.pictures.add(200, pictureSend{command: "cat", chat: other, at: now.Add(-2 * time.Minute)})
	mention := func(number, uuid string, start int) string {
		return fmt.Sprintf(`{"name":%q,"number":%q,"uuid":%q,"start":%d,"length":1}`, number, number, uuid, start)
	}
	text := func(msg string, mentions ...string) string {
		return `{"envelope":{"sourceNumber":"` + other + `","sourceUuid":"u-1","timestamp":5,"dataMessage":{"message":"` + msg +
			`","mentions":[` + strings.Join(mentions, ",") + `]}},"account":"` + account + `"}`
	}
	react := func(emoji, author string, target int64, remove bool) string {
		return fmt.Sprintf(`{"envelope":{"sourceNumber":%q,"sourceUuid":"u-1","timestamp":6,"dataMessage":{"message":null,"reaction":{"emoji":%q,"targetAuthor":%q,"targetAuthorNumber":%q,"targetAuthorUuid":"x","targetSentTimestamp":%d,"isRemove":%v}}},"account":%q}`,
			other, emoji, author, author, target, remove, account)
	}
	tests := []struct {
		name     string
		raw      string
		wantCmd  string
		wantArgs string
		wantSkip signalapi.Skip
		repeat   int64
	}{
		{"mention of the bot", text(`\uFFFC !pomoc`, mention(account, selfUUID, 0)), "pomoc", "", signalapi.SkipNone, 0},
		{"mention of the bot by uuid", text(`\uFFFC!kot szary`, mention("", selfUUID, 0)), "kot", "szary", signalapi.SkipNone, 0},
		{"mention of someone else", text(`\uFFFC !pomoc`, mention(other, "u-9", 0)), "", "", signalapi.SkipNone, 0},
		{"repeat", react("🔁", account, 100, false), "kot", "", signalapi.SkipNone, 100},
		{"repeat with a variation selector", react("🔁\uFE0F", account, 100, false), "kot", "", signalapi.SkipNone, 100},
		{"repeat past the window", react("🔁", account, 200, false), "", "", signalapi.SkipReaction, 0},
		{"repeat of a send not remembered", react("🔁", account, 300, false), "", "", signalapi.SkipReaction, 0},
		{"repeat on someone else's message", react("🔁", other, 100, false), "", "", signalapi.SkipReaction, 0},
		{"repeat taken back", react("🔁", account, 100, true), "", "", signalapi.SkipReaction, 0},
		{"another emoji", react("👍", account, 100, false), "", "", signalapi.SkipReaction, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key, m, err := b.decode([]byte(tt.raw), signalapi.ViaWebsocket)
			if err != nil || m.Err != nil {
				t.Fatalf("decode(%s): %v, %v", tt.raw, err, m.Err)
			}
			if m.Skip != tt.wantSkip || m.Command != tt.wantCmd || m.Args != tt.wantArgs || m.IsCommand != (tt.wantCmd != "") ||
				m.Repeat != tt.repeat || (key != "") != m.IsCommand {
				t.Errorf("decode = key %q, skip %q, command %q %q, repeat %d; want skip %q, command %q %q, repeat %d",
					key, m.Skip, m.Command, m.Args, m.Repeat, tt.wantSkip, tt.wantCmd, tt.wantArgs, tt.repeat)
			}
		})
	}
	d.Reactor = nil // REACTIONS=off: a 🔁 is a reaction like any other
	if _, m, _ := New(d).decode([]byte(react("🔁", account, 100, false)), signalapi.ViaWebsocket); m.IsCommand {
		t.Error("REACTIONS=off: a 🔁 was read as a command")
	}
}

// reactorFunc is a Reactor from a function; nil records nothing.
type reactorFunc func(recipient, emoji, author string, ts int64) error

func (f reactorFunc) React(_ context.Context, recipient, emoji, author string, ts int64) error {
	if f == nil {
		return nil
	}
	return f(recipient, emoji, author, ts)
}
