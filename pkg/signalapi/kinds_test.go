package signalapi

import (
	"encoding/json"
	"strings"
	"testing"
)

// kindFixtures are the frames of testdata/frames that are data messages of
// another kind than a text, with the skip each must get.
var kindFixtures = []struct {
	file string
	skip Skip
}{
	{"poll-create.json", SkipPollCreate}, {"poll-vote.json", SkipPollVote}, {"poll-terminate.json", SkipPollTerminate},
	{"pin.json", SkipPin}, {"unpin.json", SkipUnpin}, {"admin-delete.json", SkipAdminDelete},
	{"remote-delete.json", SkipRemoteDelete}, {"story-reply.json", SkipStoryReply}, {"voice-note.json", SkipVoiceNote},
	{"edit.json", SkipEdit},
}

// withoutGroup is raw with every groupInfo member removed: the same message
// in a direct chat.
func withoutGroup(t *testing.T, raw []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "groupInfo")
			for _, c := range x {
				strip(c)
			}
		case []any:
			for _, c := range x {
				strip(c)
			}
		}
	}
	strip(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// asOwner is the frame raw as the owner's own message in Note-to-Self: a
// sync transcript from the account whose data message (flattened into
// sentMessage) is raw's, or whose editMessage is raw's.
func asOwner(t *testing.T, raw []byte) []byte {
	t.Helper()
	var f struct{ Envelope map[string]json.RawMessage }
	if err := json.Unmarshal(withoutGroup(t, raw), &f); err != nil {
		t.Fatal(err)
	}
	env := f.Envelope
	sent := map[string]json.RawMessage{}
	if d, ok := env["dataMessage"]; ok {
		if err := json.Unmarshal(d, &sent); err != nil {
			t.Fatal(err)
		}
	} else {
		sent["editMessage"] = env["editMessage"]
	}
	self := json.RawMessage(`"` + bot + `"`)
	sent["destination"], sent["destinationNumber"] = self, self
	delete(env, "dataMessage")
	delete(env, "editMessage")
	sm, _ := json.Marshal(map[string]any{"sentMessage": sent})
	env["syncMessage"], env["source"], env["sourceNumber"] = sm, self, self
	out, err := json.Marshal(map[string]any{"envelope": env, "account": bot})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Each kind that is no text is skipped by its kind, in a group, in a direct
// chat and as the owner's message in Note-to-Self, though `!pomoc` is in
// every text field it has: the question and options of a poll, the reply to
// a story, the caption and name of a voice note, the edited text.
func TestClassifyKinds(t *testing.T) {
	for _, k := range kindFixtures {
		group := readFrame(t, k.file)
		if !strings.Contains(string(group), `"!pomoc"`) {
			t.Fatalf("%s has no !pomoc", k.file)
		}
		for _, chat := range []struct {
			name  string
			raw   []byte
			owner bool
		}{{"group", group, false}, {"direct", withoutGroup(t, group), false}, {"note to self", asOwner(t, group), true}} {
			t.Run(k.file+"/"+chat.name, func(t *testing.T) {
				f, err := DecodeFrame(chat.raw)
				if err != nil {
					t.Fatal(err)
				}
				classify := Classify
				if chat.owner {
					classify = ClassifyOwner
				}
				in, skip := classify(f, bot)
				if skip != k.skip || in.Text != "" {
					t.Errorf("classify() = %q, text %q; want %q and no text", skip, in.Text, k.skip)
				}
				if skip.Label() == "" {
					t.Errorf("%q has no label", skip)
				}
			})
		}
	}
}

// A frame of a kind is a text once its kind's member is taken out: the
// fixtures differ from a command only by that member.
func TestKindFixturesAreTextsWithoutTheirKind(t *testing.T) {
	members := map[string]string{
		"poll-create.json": "pollCreate", "poll-vote.json": "pollVote", "poll-terminate.json": "pollTerminate",
		"pin.json": "pinMessage", "unpin.json": "unpinMessage", "admin-delete.json": "adminDelete",
		"remote-delete.json": "remoteDelete", "story-reply.json": "storyContext", "voice-note.json": "attachments",
	}
	for file, member := range members {
		var f struct {
			Envelope map[string]json.RawMessage `json:"envelope"`
			Account  string                     `json:"account"`
		}
		if err := json.Unmarshal(readFrame(t, file), &f); err != nil {
			t.Fatal(err)
		}
		var dm map[string]json.RawMessage
		if err := json.Unmarshal(f.Envelope["dataMessage"], &dm); err != nil {
			t.Fatal(err)
		}
		delete(dm, member)
		f.Envelope["dataMessage"], _ = json.Marshal(dm)
		raw, _ := json.Marshal(f)
		fr, err := DecodeFrame(raw)
		if err != nil {
			t.Fatal(err)
		}
		if in, skip := Classify(fr, bot); skip != SkipNone || in.Text != "!pomoc" {
			t.Errorf("%s without %s: %q, text %q; want the text !pomoc", file, member, skip, in.Text)
		}
	}
}

// A kind's member that is null is no kind: the text is read.
func TestNullKindIsText(t *testing.T) {
	f, err := DecodeFrame(frame(alice + `,"timestamp":1,"dataMessage":{"timestamp":1,"message":"!pomoc","pollCreate":null,"storyContext":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if in, skip := Classify(f, bot); skip != SkipNone || in.Text != "!pomoc" {
		t.Errorf("Classify() = %q, %q; want the command", skip, in.Text)
	}
}
