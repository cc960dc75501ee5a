package signalapi

import (
	"fmt"
	"testing"
)

const botUUID = "9d0c1f2e-3b7e-4c55-9a0b-5d1f0e2a7c99"

// isBot names the bot as signal-cli would, by its number or its uuid.
func isBot(number, uuid string) bool { return number == bot || uuid == botUUID }

// A command addressed to the bot: the leading U+FFFC placeholders are each a
// mention of the bot (by number or by uuid, as signal-cli's JsonMention names
// it), and the rest of the text is what is parsed; a mention of anyone else
// before it, or no mention at all, is not.
func TestAfterMentions(t *testing.T) {
	other := `{"name":"+4915112345678","number":"+4915112345678","uuid":"1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11","start":%d,"length":1}`
	self := `{"name":"` + bot + `","number":"` + bot + `","uuid":"` + botUUID + `","start":%d,"length":1}`
	selfByUUID := `{"name":"` + botUUID + `","number":null,"uuid":"` + botUUID + `","start":%d,"length":1}`
	tests := []struct {
		name     string
		message  string
		mentions string
		wantRest string
		wantOK   bool
	}{
		{"the bot", "\uFFFC !pomoc", "[" + at(self, 0) + "]", "!pomoc", true},
		{"the bot by uuid", "\uFFFC!kot", "[" + at(selfByUUID, 0) + "]", "!kot", true},
		{"the bot twice, leading spaces", "  \uFFFC \uFFFC  !ja", "[" + at(self, 2) + "," + at(self, 4) + "]", "!ja", true},
		{"someone else", "\uFFFC !pomoc", "[" + at(other, 0) + "]", "", false},
		{"the bot, then someone else", "\uFFFC \uFFFC !pomoc", "[" + at(self, 0) + "," + at(other, 2) + "]", "", false},
		{"a placeholder without its mention", "\uFFFC !pomoc", "[]", "", false},
		{"no mention", "!pomoc", "", "", false},
		{"the bot, later in the text", "hej \uFFFC !pomoc", "[" + at(self, 4) + "]", "", false},
		{"after an emoji, in UTF-16 units", "\uFFFC 😺\uFFFC", "[" + at(self, 0) + "," + at(other, 4) + "]", "😺\uFFFC", true},
		{"only the mention", "\uFFFC", "[" + at(self, 0) + "]", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dm := `"dataMessage":{"timestamp":1,"message":"` + tt.message + `"`
			if tt.mentions != "" {
				dm += `,"mentions":` + tt.mentions
			}
			f, err := DecodeFrame(frame(alice + `,"timestamp":1,` + dm + `}`))
			if err != nil {
				t.Fatal(err)
			}
			in, skip := Classify(f, bot)
			if skip != SkipNone {
				t.Fatalf("skip = %q", skip)
			}
			if rest, ok := in.AfterMentions(isBot); rest != tt.wantRest || ok != tt.wantOK {
				t.Errorf("AfterMentions() = %q, %v; want %q, %v", rest, ok, tt.wantRest, tt.wantOK)
			}
		})
	}
}

func at(format string, start int) string {
	return fmt.Sprintf(format, start)
}

// A reaction frame is skipped as a reaction, with what it reacts to read:
// the emoji, the target's author by number and uuid, and its timestamp.
func TestClassifyReaction(t *testing.T) {
	tests := []struct {
		name string
		r    string
		want Reacted
	}{
		{"signal-cli", `{"emoji":"🔁","targetAuthor":"` + bot + `","targetAuthorNumber":"` + bot + `","targetAuthorUuid":"` + botUUID + `","targetSentTimestamp":42,"isRemove":false}`,
			Reacted{Emoji: "🔁", TargetNumber: bot, TargetUUID: botUUID, TargetTimestamp: 42}},
		{"hidden number", `{"emoji":"👍","targetAuthor":"` + botUUID + `","targetAuthorNumber":null,"targetAuthorUuid":"` + botUUID + `","targetSentTimestamp":7,"isRemove":true}`,
			Reacted{Emoji: "👍", TargetUUID: botUUID, TargetTimestamp: 7, Remove: true}},
		{"targetAuthor only (older signal-cli)", `{"emoji":"🔁","targetAuthor":"` + bot + `","targetSentTimestamp":9,"isRemove":false}`,
			Reacted{Emoji: "🔁", TargetNumber: bot, TargetTimestamp: 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := DecodeFrame(frame(alice + `,"timestamp":5,"dataMessage":{"timestamp":5,"message":null,"reaction":` + tt.r + `}`))
			if err != nil {
				t.Fatal(err)
			}
			in, skip := Classify(f, bot)
			if skip != SkipReaction || in.Reaction == nil || *in.Reaction != tt.want || in.Timestamp != 5 || in.SenderKey() == "" {
				t.Errorf("Classify() = %+v (reaction %+v), %q; want a reaction %+v from the sender", in, in.Reaction, skip, tt.want)
			}
		})
	}
}
