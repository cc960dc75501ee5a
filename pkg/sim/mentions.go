package sim

import (
	"fmt"
	"unicode/utf16"

	"signal-bot/pkg/signalid"
)

// placeholder is the character Signal clients put in a message's text where an @mention
// is, with the mention itself (who, where) beside the text.
const placeholder = '\uFFFC'

// mentionsOf renders the mentions of text, one per U+FFFC placeholder in order, as
// signal-cli does: each member is a number or a uuid; start and length count UTF-16 code
// units. Without members the text has no mentions (a placeholder typed as it is); with
// them, the number of placeholders must match.
func mentionsOf(text string, members []string) ([]wireMention, error) {
	if len(members) == 0 {
		return nil, nil
	}
	var out []wireMention
	pos := 0 // in UTF-16 code units
	for _, r := range text {
		if r == placeholder {
			if len(out) == len(members) {
				return nil, fmt.Errorf("%d mentions for more placeholders (U+FFFC) in the text", len(members))
			}
			out = append(out, mentionOf(members[len(out)], pos))
		}
		pos += len(utf16.Encode([]rune{r}))
	}
	if len(out) != len(members) {
		return nil, fmt.Errorf("%d mentions for %d placeholders (U+FFFC) in the text", len(members), len(out))
	}
	return out, nil
}

// mentionOf is the mention of member (a number, or the uuid of one whose number is hidden)
// at start.
func mentionOf(member string, start int) wireMention {
	author := authorOf(member)
	m := wireMention{Name: member, Number: author.number, UUID: author.uuid, Start: start, Length: 1}
	return m
}

// authorOf resolves a number or a uuid to a sender: a uuid alone has no number.
func authorOf(id string) sender {
	if signalid.IsUUID(id) {
		return sender{uuid: id}
	}
	return sender{number: strPtr(id), uuid: UUIDOf(id)}
}
