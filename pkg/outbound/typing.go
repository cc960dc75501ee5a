package outbound

import "time"

// typingCost is what a typing indicator costs a chat's bucket: Signal counts each
// typing message like any other, and an indicator is two (shown, cleared); each
// refresh of one is one more.
const (
	typingCost  = 2
	refreshCost = 1
)

// SpareTyping reports whether chat's budget can spare a typing indicator at now, and
// if so takes its two tokens. It spares one only while no 429 pause is on and, with the
// budget on, while at least half the chat's bucket is left after it: a typing
// indicator is a courtesy, and the replies come first. It implements bot.TypingBudget.
func (g *Gate) SpareTyping(chat string, now time.Time) bool {
	return g.spare(chat, typingCost, now)
}

// SpareTypingRefresh is SpareTyping for one refresh of an indicator already shown: it
// takes one token, under the same rule.
func (g *Gate) SpareTypingRefresh(chat string, now time.Time) bool {
	return g.spare(chat, refreshCost, now)
}

// spare takes cost tokens from chat's bucket if at least half of it is left after them.
func (g *Gate) spare(chat string, cost int, now time.Time) bool {
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
	if b.tokens-float64(cost) < b.size/2 {
		return false
	}
	b.take(cost)
	return true
}
