package signalapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const (
	bot   = "+4915199999999"
	alice = `"source":"+4915112345678","sourceNumber":"+4915112345678","sourceUuid":"1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11","sourceName":"Alice","sourceDevice":1`
	gid   = "Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI="
)

func frame(env string) []byte {
	return []byte(`{"envelope":{` + env + `},"account":"` + bot + `"}`)
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name      string
		raw       []byte
		wantSkip  Skip
		wantReply string
		wantText  string
	}{
		{"direct text", frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":"!pomoc","expiresInSeconds":0,"isExpirationUpdate":false,"viewOnce":false}`), SkipNone, "+4915112345678", "!pomoc"},
		{"group text", frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":" !kot ","groupInfo":{"groupId":"` + gid + `","groupName":"G","revision":7,"type":"DELIVER"}}`), SkipNone, "group.UG1waStFZlBXbXN4aW9tTGU5TngyWEY5SE9FNDgzcDZpS2lGajY1aU13ST0=", "!kot"},
		{"hidden number", frame(`"source":"1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11","sourceNumber":null,"sourceUuid":"1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11","sourceName":null,"sourceDevice":1,"timestamp":1,"dataMessage":{"timestamp":1,"message":"!ja"}`), SkipNone, "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11", "!ja"},
		{"receipt", frame(alice + `,"timestamp":1,"receiptMessage":{"when":1,"isDelivery":true,"isRead":false,"isViewed":false,"timestamps":[1]}`), SkipReceipt, "", ""},
		{"typing", frame(alice + `,"timestamp":1,"typingMessage":{"action":"STARTED","timestamp":1}`), SkipTyping, "", ""},
		{"sync", frame(`"source":"` + bot + `","sourceNumber":"` + bot + `","sourceUuid":"9d0c","sourceName":"Bot","sourceDevice":1,"timestamp":1,"syncMessage":{"sentMessage":{"destination":"+49","timestamp":1,"message":"!pomoc"}}`), SkipSync, "", ""},
		{"reaction", frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":null,"reaction":{"emoji":"👍","targetSentTimestamp":1,"isRemove":false}}`), SkipReaction, "", ""},
		{"group update", frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":null,"groupInfo":{"groupId":"` + gid + `","type":"UPDATE"}}`), SkipGroupUpdate, "", ""},
		{"attachment only", frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":null,"attachments":[{"contentType":"image/jpeg","id":"x.jpg","size":1}]}`), SkipNoText, "", ""},
		{"error frame", []byte(`{"error":"boom"}`), SkipError, "", ""},
		{"undecryptable", readFrame(t, "exception-undecryptable.json"), SkipException, "", ""},
		{"untrusted identity", readFrame(t, "exception-untrusted.json"), SkipException, "", ""},
		{"edit", frame(alice + `,"timestamp":2,"editMessage":{"targetSentTimestamp":1,"dataMessage":{"timestamp":2,"message":"!kot"}}`), SkipEdit, "", ""},
		{"story", frame(alice + `,"timestamp":2,"storyMessage":{"allowsReplies":true}`), SkipOther, "", ""},
		{"other account", []byte(`{"envelope":{` + alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":"!pomoc"}},"account":"+1"}`), SkipOtherAcct, "", ""},
		{"own message", frame(`"source":"` + bot + `","sourceNumber":"` + bot + `","sourceUuid":"x","timestamp":1,"dataMessage":{"timestamp":1,"message":"!pomoc"}`), SkipOwn, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := DecodeFrame(tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			in, skip := Classify(f, bot)
			if skip != tt.wantSkip {
				t.Fatalf("Classify() skip = %q; want %q", skip, tt.wantSkip)
			}
			if skip == SkipNone && (in.ReplyTo() != tt.wantReply || in.Text != tt.wantText) {
				t.Errorf("Classify() = reply to %q, text %q; want %q, %q", in.ReplyTo(), in.Text, tt.wantReply, tt.wantText)
			}
		})
	}
}

// readFrame reads a frame of testdata/frames, as signal-cli writes it.
func readFrame(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "frames", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// An exception frame keeps the exception's message and type, whatever the
// envelope beside it holds.
func TestExceptionFrame(t *testing.T) {
	tests := []struct{ file, typ, msg string }{
		{"exception-undecryptable.json", "ProtocolInvalidMessageException", "org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed"},
		{"exception-untrusted.json", "UntrustedIdentityException", "Untrusted identity: 1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11"},
	}
	for _, tt := range tests {
		f, err := DecodeFrame(readFrame(t, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		if f.Exc == nil || f.Exc.Type != tt.typ || f.Exc.Message != tt.msg || f.Envelope == nil || f.Envelope.DataMessage != nil {
			t.Errorf("%s: exception %+v, envelope %+v; want %s %q beside a header-only envelope", tt.file, f.Exc, f.Envelope, tt.typ, tt.msg)
		}
	}
}

// Every skip reason has its own label, and SkipLabels lists them all.
func TestSkipLabels(t *testing.T) {
	all := []Skip{SkipError, SkipException, SkipNoEnvelope, SkipOtherAcct, SkipOwn, SkipReceipt, SkipTyping,
		SkipSync, SkipEdit, SkipOther, SkipReaction, SkipGroupUpdate, SkipNoText, SkipNoSender, SkipOwnerDirect,
		SkipUndecodable, SkipNotCommand, SkipDuplicate, SkipRemoteDelete, SkipAdminDelete, SkipPollCreate,
		SkipPollVote, SkipPollTerminate, SkipPin, SkipUnpin, SkipStoryReply, SkipVoiceNote}
	seen := map[string]bool{}
	for _, s := range all {
		l := s.Label()
		if l == "" || seen[l] || strings.ContainsAny(l, " -") || strings.ToLower(l) != l {
			t.Errorf("%q.Label() = %q: empty, repeated or not a plain label", s, l)
		}
		seen[l] = true
	}
	if got := SkipLabels(); len(got) != len(all) {
		t.Errorf("SkipLabels() = %v; want the %d labels", got, len(all))
	}
	for _, l := range SkipLabels() {
		if !seen[l] {
			t.Errorf("SkipLabels() has %q, no Skip's label", l)
		}
	}
	if SkipNone.Label() != "" || Skip("made up").Label() != "" {
		t.Error("SkipNone or an unknown Skip has a label")
	}
}

func TestDecodeFrameRejectsMalformed(t *testing.T) {
	for _, raw := range []string{"", "not json", `{"envelope":"x"}`, `{"envelope":{"timestamp":"soon"}}`, `[1,2]`} {
		if _, err := DecodeFrame([]byte(raw)); err == nil {
			t.Errorf("DecodeFrame(%q) = nil error; want one", raw)
		}
	}
}

func TestTextFrameRoundTrip(t *testing.T) {
	raw := TextFrame(bot, "+48500000099", "u-1", "selftest", gid, "!pomoc", 42)
	f, err := DecodeFrame(raw)
	if err != nil {
		t.Fatal(err)
	}
	in, skip := Classify(f, bot)
	if skip != SkipNone || in.Text != "!pomoc" || in.GroupID != gid || in.Timestamp != 42 {
		t.Errorf("round trip = %+v, %q", in, skip)
	}
}

func TestDecodeSendResult(t *testing.T) {
	tests := []struct {
		body       string
		wantTS     int64
		wantFailed int
	}{
		{`{"timestamp":"1718267865850"}`, 1718267865850, 0},
		{`[{"timestamp":"1796037689290","errors":{"recipients":[{"number":"+4922","uuid":"u","reason":"UNREGISTERED_FAILURE"}]}}]`, 1796037689290, 1},
		{`{"timestamp":1718267865850}`, 1718267865850, 0},
		{``, 0, 0},
	}
	for _, tt := range tests {
		r, err := decodeSendResult([]byte(tt.body))
		if err != nil || r.Timestamp != tt.wantTS || len(r.Failed) != tt.wantFailed {
			t.Errorf("decodeSendResult(%s) = %+v, %v; want ts %d, %d failed", tt.body, r, err, tt.wantTS, tt.wantFailed)
		}
	}
}

func FuzzDecodeFrame(f *testing.F) {
	f.Add(frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":"!pomoc"}`))
	f.Add(frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":null,"groupInfo":{"groupId":"` + gid + `","type":"UPDATE"}}`))
	f.Add([]byte(`{"error":"x"}`))
	f.Add(readFrame(f, "exception-undecryptable.json"))
	f.Add([]byte(`{"envelope":null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		fr, err := DecodeFrame(raw)
		if err != nil {
			return
		}
		in, skip := Classify(fr, bot)
		if skip == SkipNone && (in.Text == "" || in.ReplyTo() == "") {
			t.Fatalf("answerable frame without text or recipient: %+v", in)
		}
		// What the bot reads from a frame survives a round trip through its
		// own types: encoded and decoded again, the frame classifies the
		// same, and a second encoding is the first, byte for byte.
		enc, err := json.Marshal(fr)
		if err != nil {
			t.Fatalf("encode the decoded frame of %q: %v", raw, err)
		}
		again, err := DecodeFrame(enc)
		if err != nil {
			t.Fatalf("decode %s, the encoding of the decoded %q: %v", enc, raw, err)
		}
		if in2, skip2 := Classify(again, bot); !reflect.DeepEqual(in2, in) || skip2 != skip {
			t.Fatalf("frame %q classifies as %+v, %q; after a round trip (%s) as %+v, %q", raw, in, skip, enc, in2, skip2)
		}
		if enc2, err := json.Marshal(again); err != nil || !bytes.Equal(enc2, enc) {
			t.Fatalf("frame %q: encoded %s, then %s (%v)", raw, enc, enc2, err)
		}
	})
}

// DecodeLine reads a webhook's JSON-RPC line in one pass: a receive line is
// its params, as DecodeFrame reads them from the websocket; an error
// notification is the REST API's {"error":…}; params of the wrong shape are a
// malformed frame (an error, but neither ErrBadLine nor ErrNotReceive); a
// line of another method is ErrNotReceive; no JSON-RPC line, a receive line
// without params and a line-level field of the wrong type are ErrBadLine.
func TestDecodeLine(t *testing.T) {
	params := string(frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":"!pomoc"}`))
	line := func(rest string) []byte { return []byte(`{"jsonrpc":"2.0",` + rest + `}`) }
	tests := []struct {
		name      string
		raw       []byte
		want      string // the websocket frame it reads as; "" when it is an error
		wantErr   error
		malformed bool
	}{
		{"receive", line(`"method":"receive","params":` + params), params, nil, false},
		{"error notification", line(`"method":"receive","error":{"code":-1,"message":"boom"}`), `{"error":"boom"}`, nil, false},
		{"params of the wrong shape", line(`"method":"receive","params":{"envelope":{"sourceNumber":42}}`), "", nil, true},
		{"params not an object", line(`"method":"receive","params":5`), "", nil, true},
		{"other method", line(`"method":"receiveSomething","params":{}`), "", ErrNotReceive, false},
		{"response", line(`"id":"1","result":{}`), "", ErrNotReceive, false},
		{"not json", []byte("!pomoc"), "", ErrBadLine, false},
		{"no params", line(`"method":"receive"`), "", ErrBadLine, false},
		{"null params", line(`"method":"receive","params":null`), "", ErrBadLine, false},
		{"method not a string", line(`"method":7,"params":{}`), "", ErrBadLine, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeLine(tt.raw)
			if tt.wantErr != nil || tt.malformed {
				if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) ||
					(tt.malformed && (errors.Is(err, ErrBadLine) || errors.Is(err, ErrNotReceive))) {
					t.Fatalf("DecodeLine = %v; want %v (malformed frame: %v)", err, tt.wantErr, tt.malformed)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeLine: %v", err)
			}
			want, err := DecodeFrame([]byte(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("DecodeLine = %+v; want %+v, as DecodeFrame reads %s", got, want, tt.want)
			}
		})
	}
}
