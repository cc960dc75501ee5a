package bot

import (
	"strings"
	"sync"
	"time"

	"signal-bot/pkg/signalapi"
)

// Emojis of the reactions the bot gives and reads (REACTIONS=on).
const (
	EmojiWait   = "⏳" // on a repeat refused inside its cooldown, instead of a text
	EmojiRepeat = "🔁" // on one of the bot's pictures: another of the same, please
)

// pictureSendsCap bounds the picture sends remembered for 🔁.
const pictureSendsCap = 256

// pictureSend is one picture reply the bot sent: which command, to which chat.
type pictureSend struct {
	command, chat string
	at            time.Time
}

// pictureSends remembers the bot's last picture sends by the timestamp
// POST /v2/send answered, the one a reaction on them names; past
// pictureSendsCap the oldest are forgotten.
type pictureSends struct {
	mu   sync.Mutex
	byTS map[int64]pictureSend
	ring []int64
	next int
}

func newPictureSends(n int) *pictureSends {
	return &pictureSends{byTS: make(map[int64]pictureSend, n), ring: make([]int64, n)}
}

// add remembers the picture sent at ts.
func (p *pictureSends) add(ts int64, s pictureSend) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.byTS[ts]; ok {
		return
	}
	if old := p.ring[p.next]; old != 0 {
		delete(p.byTS, old)
	}
	p.ring[p.next] = ts
	p.next = (p.next + 1) % len(p.ring)
	p.byTS[ts] = s
}

// get is the picture sent at ts, if it is remembered.
func (p *pictureSends) get(ts int64) (pictureSend, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.byTS[ts]
	return s, ok
}

// repeatOf turns m, a reaction frame, into a command when it is a 🔁 on one
// of the bot's pictures in the same chat within REPEAT_WINDOW: the command
// of that picture, asked by whoever reacted. It reports whether it did.
func (b *Bot) repeatOf(m *Message) bool {
	r := m.In.Reaction
	if b.d.Reactor == nil || r == nil || r.Remove || strings.TrimSuffix(r.Emoji, "\uFE0F") != EmojiRepeat ||
		!b.self.is(r.TargetNumber, r.TargetUUID) {
		return false
	}
	p, ok := b.pictures.get(r.TargetTimestamp)
	if !ok || p.chat != m.In.ReplyTo() || b.d.Now().Sub(p.at) > b.d.RepeatWindow {
		return false
	}
	m.Skip, m.Command, m.IsCommand, m.Repeat = signalapi.SkipNone, p.command, true, r.TargetTimestamp
	return true
}
