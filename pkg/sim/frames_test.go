package sim

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// envelopeHeader are the keys every envelope carries, possibly null (docs/wire-format.md §1).
var envelopeHeader = []string{
	"source", "sourceNumber", "sourceUuid", "sourceName", "sourceDevice",
	"timestamp", "serverReceivedTimestamp", "serverDeliveredTimestamp",
}

// dataHeader are the keys every data message carries.
var dataHeader = []string{"timestamp", "message", "expiresInSeconds", "isExpirationUpdate", "viewOnce"}

// bodyKeys are the mutually exclusive message parts of an envelope.
var bodyKeys = []string{"dataMessage", "editMessage", "syncMessage", "receiptMessage", "typingMessage"}

func TestFrameShapes(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("%2B48500000001")
	g := TestGroup()
	tests := []struct {
		name  string
		msg   Message
		body  string // the one body key
		check func(t *testing.T, env, body map[string]any)
	}{
		{"direct text", Message{From: "+48111", Name: "Alice", Text: "!kot"}, "dataMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, env, "source", "+48111")
				wantValue(t, env, "sourceNumber", "+48111")
				wantValue(t, env, "sourceUuid", UUIDOf("+48111"))
				wantValue(t, env, "sourceName", "Alice")
				wantValue(t, body, "message", "!kot")
				wantAbsent(t, body, "groupInfo", "attachments", "reaction")
			}},
		{"privacy sender in group", Message{UUID: "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11", Group: "testbot", Text: "!pomoc"}, "dataMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, env, "sourceNumber", nil)
				wantValue(t, env, "source", "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11")
				wantValue(t, env, "sourceName", nil)
				gi := wantObject(t, body, "groupInfo")
				wantKeys(t, gi, "groupId", "groupName", "revision", "type")
				wantValue(t, gi, "groupId", g.InternalID)
				wantValue(t, gi, "groupName", g.Name)
				wantValue(t, gi, "type", "DELIVER")
			}},
		{"attachment only", Message{Kind: KindAttachmentOnly}, "dataMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, env, "sourceNumber", DefaultSender)
				wantValue(t, body, "message", nil)
				atts, ok := body["attachments"].([]any)
				if !ok || len(atts) != 1 {
					t.Fatalf("attachments = %v; want one", body["attachments"])
				}
				a := atts[0].(map[string]any)
				wantKeys(t, a, "contentType", "filename", "id", "size", "width", "height", "caption", "uploadTimestamp")
				wantValue(t, a, "contentType", "image/png")
				wantValue(t, a, "width", "4")
				wantValue(t, a, "filename", nil)
			}},
		{"reaction", Message{Kind: KindReaction, From: "+48111", Text: "❤", Target: 42}, "dataMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, body, "message", nil)
				r := wantObject(t, body, "reaction")
				wantKeys(t, r, "emoji", "targetAuthor", "targetAuthorNumber", "targetAuthorUuid", "targetSentTimestamp", "isRemove")
				wantValue(t, r, "emoji", "❤")
				wantValue(t, r, "targetSentTimestamp", "42")
				wantValue(t, r, "targetAuthor", DefaultNumber)
				wantValue(t, r, "targetAuthorNumber", DefaultNumber)
				wantValue(t, r, "targetAuthorUuid", UUIDOf(DefaultNumber))
			}},
		{"reaction on a hidden number's message", Message{Kind: KindReaction, Text: "🔁", Target: 43, TargetAuthor: UUIDOf("+48222")}, "dataMessage",
			func(t *testing.T, env, body map[string]any) {
				r := wantObject(t, body, "reaction")
				wantValue(t, r, "targetAuthor", UUIDOf("+48222"))
				wantValue(t, r, "targetAuthorNumber", nil)
				wantValue(t, r, "targetAuthorUuid", UUIDOf("+48222"))
			}},
		{"mentions", Message{From: "+48111", Group: "testbot", Text: "\uFFFC \uFFFC !pomoc", Mentions: []string{DefaultNumber, UUIDOf("+48222")}}, "dataMessage",
			func(t *testing.T, env, body map[string]any) {
				ms, ok := body["mentions"].([]any)
				if !ok || len(ms) != 2 {
					t.Fatalf("mentions = %v; want two", body["mentions"])
				}
				m0, m1 := ms[0].(map[string]any), ms[1].(map[string]any)
				wantKeys(t, m0, "name", "number", "uuid", "start", "length")
				wantValue(t, m0, "name", DefaultNumber)
				wantValue(t, m0, "number", DefaultNumber)
				wantValue(t, m0, "uuid", UUIDOf(DefaultNumber))
				wantValue(t, m0, "start", "0")
				wantValue(t, m0, "length", "1")
				wantValue(t, m1, "name", UUIDOf("+48222"))
				wantValue(t, m1, "number", nil)
				wantValue(t, m1, "start", "2")
			}},
		{"group update", Message{Kind: KindGroupUpdate, Group: g.ID()}, "dataMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, body, "message", nil)
				wantValue(t, wantObject(t, body, "groupInfo"), "type", "UPDATE")
			}},
		{"edit", Message{Kind: KindEdit, Text: "!kot fixed", Target: 7}, "editMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, body, "targetSentTimestamp", "7")
				dm := wantObject(t, body, "dataMessage")
				wantKeys(t, dm, dataHeader...)
				wantValue(t, dm, "message", "!kot fixed")
			}},
		{"receipt", Message{Kind: KindReceipt, Target: 9}, "receiptMessage",
			func(t *testing.T, env, body map[string]any) {
				wantKeys(t, body, "when", "isDelivery", "isRead", "isViewed", "timestamps")
				wantValue(t, body, "isDelivery", true)
			}},
		{"typing in group", Message{Kind: KindTyping, Group: "testbot"}, "typingMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, body, "action", "STARTED")
				wantValue(t, body, "groupId", g.InternalID)
			}},
		{"sync of own send", Message{Kind: KindSync, From: "+48111", Text: "typed on the phone"}, "syncMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, env, "source", DefaultNumber)
				wantValue(t, env, "sourceUuid", UUIDOf(DefaultNumber))
				sm := wantObject(t, body, "sentMessage")
				wantKeys(t, sm, append([]string{"destination", "destinationNumber", "destinationUuid"}, dataHeader...)...)
				wantValue(t, sm, "destination", "+48111")
				wantValue(t, sm, "message", "typed on the phone")
				wantValue(t, env, "sourceDevice", "1")
			}},
		// The owner's !pomoc in Note-to-Self, typed on a linked desktop: the destination is
		// the account itself, by number and uuid.
		{"sync in note to self", Message{Kind: KindSync, To: DefaultNumber, Device: 3, Text: "!pomoc"}, "syncMessage",
			func(t *testing.T, env, body map[string]any) {
				wantValue(t, env, "sourceNumber", DefaultNumber)
				wantValue(t, env, "sourceDevice", "3")
				sm := wantObject(t, body, "sentMessage")
				wantValue(t, sm, "destination", DefaultNumber)
				wantValue(t, sm, "destinationNumber", DefaultNumber)
				wantValue(t, sm, "destinationUuid", UUIDOf(DefaultNumber))
				wantValue(t, sm, "timestamp", env["timestamp"])
				wantValue(t, sm, "message", "!pomoc")
				wantAbsent(t, sm, "groupInfo")
			}},
		// In a group every destination is null and groupInfo names the group.
		{"sync in group", Message{Kind: KindSync, Group: "testbot", Text: "!pomoc"}, "syncMessage",
			func(t *testing.T, env, body map[string]any) {
				sm := wantObject(t, body, "sentMessage")
				wantKeys(t, sm, append([]string{"destination", "destinationNumber", "destinationUuid", "groupInfo"}, dataHeader...)...)
				for _, k := range []string{"destination", "destinationNumber", "destinationUuid"} {
					wantValue(t, sm, k, nil)
				}
				wantValue(t, wantObject(t, sm, "groupInfo"), "groupId", g.InternalID)
			}},
		{"sync to a hidden number", Message{Kind: KindSync, To: "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11", Text: "hi"}, "syncMessage",
			func(t *testing.T, env, body map[string]any) {
				sm := wantObject(t, body, "sentMessage")
				wantValue(t, sm, "destination", "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11")
				wantValue(t, sm, "destinationNumber", nil)
				wantValue(t, sm, "destinationUuid", "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := h.sim.Deliver(tt.msg)
			if err != nil {
				t.Fatalf("Deliver: %v", err)
			}
			f := readFrame(t, conn)
			if got := sortedKeys(f); !slices.Equal(got, []string{"account", "envelope"}) {
				t.Fatalf("frame keys = %v; want [account envelope]", got)
			}
			wantValue(t, f, "account", DefaultNumber)
			env := wantObject(t, f, "envelope")
			wantKeys(t, env, envelopeHeader...)
			wantValue(t, env, "timestamp", json.Number(itoa(ts)).String())
			for _, k := range bodyKeys {
				if _, ok := env[k]; ok != (k == tt.body) {
					t.Errorf("envelope has %s = %v; want only %s", k, ok, tt.body)
				}
			}
			body := wantObject(t, env, tt.body)
			if tt.body == "dataMessage" {
				wantKeys(t, body, dataHeader...)
			}
			tt.check(t, env, body)
		})
	}
}

func TestDeliverUnknownGroupAlias(t *testing.T) {
	s := New(Config{})
	defer s.Close()
	if _, err := s.Deliver(Message{Group: "nope", Text: "x"}); err == nil {
		t.Fatal("Deliver to unknown alias: got nil error; want one")
	}
	if _, err := s.Deliver(Message{Text: "\uFFFC !x", Mentions: []string{"+48111", "+48222"}}); err == nil {
		t.Fatal("Deliver with more mentions than placeholders: got nil error; want one")
	}
	if _, err := s.Deliver(Message{Text: "\uFFFC\uFFFC !x", Mentions: []string{"+48111"}}); err == nil {
		t.Fatal("Deliver with fewer mentions than placeholders: got nil error; want one")
	}
	if _, err := s.Deliver(Message{Kind: KindGroupUpdate}); err == nil {
		t.Fatal("Deliver group update without group: got nil error; want one")
	}
}

// An undecryptable message is what signal-cli's JsonReceiveMessageHandler writes for a
// message it could not decrypt: the exception (JsonError: message, type) first, then a
// header-only envelope naming the sender, then the account, in the order Jackson writes
// the HashMap.
func TestUndecryptableFrameShape(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("%2B48500000001")
	tests := []struct {
		name, text, typ, message string
	}{
		{"broken session", "", "ProtocolInvalidMessageException", "org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed"},
		{"untrusted identity", "untrusted", "UntrustedIdentityException", "Untrusted identity: " + UUIDOf("+48111")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := h.sim.Deliver(Message{Kind: KindUndecryptable, From: "+48111", Name: "Alice", Text: tt.text}); err != nil {
				t.Fatalf("Deliver: %v", err)
			}
			raw := readRaw(t, conn)
			if !bytes.HasPrefix(raw, []byte(`{"exception":{"message":`)) || !bytes.Contains(raw, []byte(`},"envelope":{"source":`)) ||
				!bytes.HasSuffix(raw, []byte(`},"account":"`+DefaultNumber+`"}`)) {
				t.Errorf("frame %s: want exception, envelope, account in that order", raw)
			}
			var f map[string]any
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if err := dec.Decode(&f); err != nil {
				t.Fatal(err)
			}
			if got := sortedKeys(f); !slices.Equal(got, []string{"account", "envelope", "exception"}) {
				t.Fatalf("frame keys = %v; want [account envelope exception]", got)
			}
			exc := wantObject(t, f, "exception")
			if got := sortedKeys(exc); !slices.Equal(got, []string{"message", "type"}) {
				t.Errorf("exception keys = %v; want [message type]", got)
			}
			wantValue(t, exc, "type", tt.typ)
			wantValue(t, exc, "message", tt.message)
			env := wantObject(t, f, "envelope")
			if got := sortedKeys(env); !slices.Equal(got, slices.Sorted(slices.Values(envelopeHeader))) {
				t.Errorf("envelope keys = %v; want the header only, %v", got, envelopeHeader)
			}
			wantValue(t, env, "sourceNumber", "+48111")
			wantValue(t, env, "sourceName", "Alice")
		})
	}
}
