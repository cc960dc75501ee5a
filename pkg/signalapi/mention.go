package signalapi

import (
	"strings"
	"unicode"
	"unicode/utf16"
)

// Placeholder is the character Signal puts in a message's text where an
// @mention is; the mention (who, where) rides beside the text.
const Placeholder = '\uFFFC'

// Mentioned is one mention in a message: who, and where its placeholder is.
type Mentioned struct {
	Number string // "" when the number is hidden
	UUID   string
	Start  int // UTF-16 code units into Incoming.Text
	Length int
}

// Reacted is a reaction: Emoji on the message sent at TargetTimestamp by
// the target author (number, uuid), or one taken back (Remove).
type Reacted struct {
	Emoji           string
	TargetNumber    string // "" when hidden
	TargetUUID      string
	TargetTimestamp int64
	Remove          bool
}

// reactedOf reads signal-cli's reaction; targetAuthor is the number, else
// the uuid, and fills in whichever of the two is missing.
func reactedOf(r *Reaction) *Reacted {
	out := &Reacted{Emoji: r.Emoji, TargetNumber: deref(r.TargetAuthorNumber), TargetUUID: deref(r.TargetAuthorUUID),
		TargetTimestamp: r.TargetSentTimestamp, Remove: r.IsRemove}
	if out.TargetNumber == "" && out.TargetUUID == "" && r.TargetAuthor != "" {
		if strings.HasPrefix(r.TargetAuthor, "+") {
			out.TargetNumber = r.TargetAuthor
		} else {
			out.TargetUUID = r.TargetAuthor
		}
	}
	return out
}

// mentionsOf reads signal-cli's mentions of raw, the text before trimming,
// with their places moved onto the trimmed text (Incoming.Text).
func mentionsOf(ms []Mention, raw string) []Mentioned {
	if len(ms) == 0 {
		return nil
	}
	lead := raw[:len(raw)-len(strings.TrimLeftFunc(raw, unicode.IsSpace))]
	shift := len(utf16.Encode([]rune(lead)))
	out := make([]Mentioned, 0, len(ms))
	for _, m := range ms {
		number := deref(m.Number)
		if number == "" && strings.HasPrefix(m.Name, "+") {
			number = m.Name
		}
		out = append(out, Mentioned{Number: number, UUID: deref(m.UUID), Start: m.Start - shift, Length: m.Length})
	}
	return out
}

// AfterMentions is the text after the placeholders that lead it, when
// there is at least one and each is a mention that isSelf says names the
// bot (by number or uuid): "￼ !pomoc" addressed to the bot is "!pomoc". ok
// is false for a text that does not start with a placeholder, and for one
// whose leading mentions name anyone else.
func (in Incoming) AfterMentions(isSelf func(number, uuid string) bool) (rest string, ok bool) {
	pos, n := 0, 0 // pos in UTF-16 code units
	for i, r := range in.Text {
		switch {
		case r == Placeholder:
			m, found := in.mentionAt(pos)
			if !found || !isSelf(m.Number, m.UUID) {
				return "", false
			}
			n++
		case unicode.IsSpace(r):
		case n == 0:
			return "", false
		default:
			return strings.TrimSpace(in.Text[i:]), true
		}
		pos += len(utf16.Encode([]rune{r}))
	}
	return "", n > 0
}

// mentionAt is the mention whose placeholder starts at pos.
func (in Incoming) mentionAt(pos int) (Mentioned, bool) {
	for _, m := range in.Mentions {
		if m.Start == pos && m.Length == 1 {
			return m, true
		}
	}
	return Mentioned{}, false
}
