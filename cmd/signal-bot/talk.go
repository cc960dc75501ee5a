package main

import (
	"fmt"
	"io"
	"strings"

	"signal-bot/pkg/sim"
)

// The sandbox's typist speaks as Signal users do: "@bot …" mentions the bot
// (Signal's U+FFFC placeholder with a mention of the bot's number), and a line
// of 🔁 alone is a reaction on the bot's last picture.

// mentionPrefix starts a typed line that addresses the bot.
const mentionPrefix = "@bot "

// messageOf is the message a typed line becomes, from the typist in the test
// group of s.
func messageOf(s *sim.Sim, line string) sim.Message {
	m := sim.Message{From: sandboxUser, Name: "Ty", Group: sim.TestGroup().Alias, Text: line}
	switch {
	case strings.HasPrefix(line, mentionPrefix):
		m.Text, m.Mentions = "\uFFFC "+strings.TrimPrefix(line, mentionPrefix), []string{s.Number()}
	case line == "🔁":
		m.Kind, m.Target = sim.KindReaction, lastPicture(s)
	}
	return m
}

// lastPicture is the timestamp of the bot's last picture send; 0 (the
// simulator's "the last send") when there is none.
func lastPicture(s *sim.Sim) int64 {
	sent := s.Sent()
	for i := len(sent) - 1; i >= 0; i-- {
		if len(sent[i].Attachments) > 0 {
			return sent[i].Timestamp
		}
	}
	return 0
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
		fmt.Fprintf(&b, "bot reacts %s in %s to %s\n", r.Emoji, r.Group, on)
	}
	p.reacted = len(rs)
	_, err := io.WriteString(p.out, b.String())
	return err
}
