package bot

import (
	"sync/atomic"

	"signal-bot/pkg/signalapi"
)

// self is the bot's own identity, as mentions name it: its number, and its
// uuid once a group listing has shown it (LearnSelf).
type self struct {
	number string
	uuid   atomic.Pointer[string]
}

// is reports whether a mention of number or uuid names the bot.
func (s *self) is(number, uuid string) bool {
	if number != "" && number == s.number {
		return true
	}
	u := s.uuid.Load()
	return uuid != "" && u != nil && uuid == *u
}

// LearnSelf takes the bot's own uuid from a listing of its groups, where the
// account is a member like any other (GET /v1/groups with expand=true gives
// number and uuid), so that a mention of the bot by uuid alone addresses it
// too. A listing without the account changes nothing.
func (b *Bot) LearnSelf(gs []signalapi.Group) {
	for _, g := range gs {
		for _, m := range g.Members {
			if m.Number == b.self.number && m.UUID != "" {
				u := m.UUID
				b.self.uuid.Store(&u)
				return
			}
		}
	}
}

// commandText is the text of in to parse as a command: after the leading
// mentions when each of them names the bot ("￼ !pomoc"), else the whole
// text, in which a mention of anyone else before a "!" word is no command.
func (b *Bot) commandText(in signalapi.Incoming) string {
	if rest, ok := in.AfterMentions(b.self.is); ok {
		return rest
	}
	return in.Text
}
