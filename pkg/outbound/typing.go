package outbound

import "time"

// typingCost is what a typing indicator costs a chat's bucket: Signal counts each
// typing message like any other, and an indicator is two (shown, cleared).
const typingCost = 2

// SpareTyping reports whether chat's budget can spare a typing indicator at now, and
// if so takes its two tokens. It spares one only while no 429 pause is on and, with the
// budget on, while at least half the chat's bucket is left after it: a typing
// indicator is a courtesy, and the replies come first. It implements bot.TypingBudget.
func (g *Gate) SpareTyping(chat string, now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now.Before(g.pausedUntil) {
		return false
	}
	if !g.cfg.Budget {
		return true
	}
	b := g.chat(chat, now)
	b.refill(now)
	if b.tokens-typingCost < b.size/2 {
		return false
	}
	b.take(typingCost)
	return true
}
