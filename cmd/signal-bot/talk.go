package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf16"

	"signal-bot/pkg/sim"
)

// The sandbox's typist speaks as Signal users do: "@bot …" mentions the bot
// (Signal's U+FFFC placeholder with a mention of the bot's number), and a line
// of 🔁 alone is a reaction on the bot's last picture in that chat.

// mentionPrefix starts a typed line that addresses the bot.
const mentionPrefix = "@bot "

// lastPicture is the timestamp of the bot's last picture send to recipient
// (a group's alias or a number); 0 (the simulator's "the last send") when
// there is none.
func lastPicture(s *sim.Sim, recipient string) int64 {
	sent := s.Sent()
	for i := len(sent) - 1; i >= 0; i-- {
		x := sent[i]
		if len(x.Attachments) > 0 && (x.Group == recipient || slices.Contains(x.Recipients, recipient)) {
			return x.Timestamp
		}
	}
	return 0
}

// whom names a quote's or a reaction's author: the bot quotes by uuid, and
// the sandbox's people are shown by their role and number.
func whom(author string) string {
	for _, p := range personas() {
		if author == p.number || author == sim.UUIDOf(p.number) {
			return p.role + " " + p.number
		}
	}
	return author
}

// quoted is a quote's text as Signal shows it: each mention's placeholder
// (at its start, in UTF-16 code units) replaced by the name of whom it
// mentions, "@bot" for the bot.
func quoted(s *sim.Sim, x sim.Sent) string {
	var b strings.Builder
	pos := int64(0)
	for _, r := range x.QuoteMessage {
		i := slices.IndexFunc(x.QuoteMentions, func(m sim.SentMention) bool { return m.Start == pos })
		pos += int64(len(utf16.Encode([]rune{r})))
		switch {
		case r != '\uFFFC' || i < 0:
			b.WriteRune(r)
		case x.QuoteMentions[i].Author == s.Number() || x.QuoteMentions[i].Author == sim.UUIDOf(s.Number()):
			b.WriteString("@bot")
		default:
			b.WriteString("@" + whom(x.QuoteMentions[i].Author))
		}
	}
	return b.String()
}

// printReactions writes the bot's reactions not printed yet, as a chat shows
// them: the emoji under the message it is on; p.mu is held.
func (p *replyPrinter) printReactions() error {
	rs := p.sim.Reactions()
	if len(rs) <= p.reacted {
		return nil
	}
	var b strings.Builder
	for _, r := range rs[p.reacted:] {
		on := whom(r.TargetAuthor) + "'s message"
		if r.TargetAuthor == p.sim.Number() {
			on = "its own message"
		}
		chat := r.Group
		if chat == "" {
			chat = chatOf(p.sim, sim.Sent{Recipients: []string{r.Recipient}})
		}
		fmt.Fprintf(&b, "bot reacts %s in %s to %s\n", r.Emoji, chat, on)
	}
	p.reacted = len(rs)
	_, err := io.WriteString(p.out, b.String())
	return err
}
