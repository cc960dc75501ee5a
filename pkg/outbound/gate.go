// Package outbound keeps the bot's sends inside what Signal allows an account:
// a token bucket per chat and one for attachments per account, and a pause of
// every send after Signal answers a rate limit (429). A reply that cannot go
// within the wait it is allowed is shed: not sent, counted and logged.
package outbound

import (
	"sync"
	"time"
)

// Reasons a reply is shed, the reason label of signal_bot_replies_shed_total.
const (
	ShedChat        = "budget_chat"        // the chat's bucket is empty for longer than the wait allowed
	ShedAttachments = "budget_attachments" // the account's attachment bucket is
	ShedPaused      = "paused"             // sends are paused after a 429 for longer than that
)

// limits is Config as the gate uses it.
type limits struct {
	Budget      bool          // false: no buckets (benchmarks); the pause after a 429 still holds
	ChatN       int           // a chat's burst, refilled ChatN per ChatPer
	ChatPer     time.Duration //
	AttachN     int           // the account's attachment burst, refilled AttachN per AttachPer
	AttachPer   time.Duration //
	WaitMax     time.Duration // longest a reply may wait for a token or the end of a pause
	PauseMin    time.Duration // pause after a 429 without a retry time, doubled per 429 in a row
	PauseMax    time.Duration // longest pause
	LogInterval time.Duration // shed replies are logged once per chat per interval
}

// sweepAt is the number of chat buckets above which full ones are forgotten.
const sweepAt = 256

// Gate decides when each reply may be sent. It is safe for concurrent use.
type Gate struct {
	cfg limits

	mu          sync.Mutex
	chats       map[string]*bucket
	attach      *bucket
	pausedUntil time.Time
	last429     time.Time           // when the last 429 came; zero: none since start
	streak      int                 // 429s in a row without a successful send between them
	seenTokens  map[string]struct{} // challenge tokens already logged
	challenge   string              // the token of a 429 that asks for proof (a captcha), until a send goes or Lift
	challengeAt time.Time           // when that 429 came
	shedLog     map[string]shedNote // chat → when its sheds were last logged, and how many since
}

type shedNote struct {
	at    time.Time
	since int
}

// New returns a gate with full buckets. With the budget off, the budgets
// are not read.
func New(c Config) *Gate {
	chat, attach, _ := c.Budgets() // checked by Validate, once, in config.Load
	cfg := limits{
		Budget: c.BudgetOn(), ChatN: chat.N, ChatPer: chat.Per, AttachN: attach.N, AttachPer: attach.Per,
		WaitMax: c.SendWaitMax, PauseMin: c.RateLimitPause, PauseMax: c.RateLimitPauseMax, LogInterval: time.Minute,
	}
	g := &Gate{cfg: cfg, chats: map[string]*bucket{}, seenTokens: map[string]struct{}{}, shedLog: map[string]shedNote{}}
	if cfg.Budget {
		g.attach = newBucket(cfg.AttachN, cfg.AttachPer, time.Now())
	}
	return g
}

// Ticket is a reply's place in the budget: it may be sent at At.
type Ticket struct {
	At          time.Time
	chat        string
	attachments int
	took        bool
}

// Reserve takes the reply's tokens: one from chat's bucket and one per attachment from
// the account's. It answers when the reply may go, or why it is shed: when the tokens or
// the end of a pause would come later than WaitMax from now. A shed reply takes nothing.
func (g *Gate) Reserve(chat string, attachments int, now time.Time) (Ticket, string) {
	return g.reserve(chat, attachments, now, true)
}

// ReserveUnpaused is Reserve for a reply that the pause after a 429 does not hold back (an
// admin's answer: the admins' console is the way out of the pause); the budget still
// applies.
func (g *Gate) ReserveUnpaused(chat string, attachments int, now time.Time) (Ticket, string) {
	return g.reserve(chat, attachments, now, false)
}

func (g *Gate) reserve(chat string, attachments int, now time.Time, held bool) (Ticket, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var wait time.Duration
	if held { // the pause after a 429 holds this reply back
		wait = max(g.pausedUntil.Sub(now), 0)
	}
	if wait > g.cfg.WaitMax {
		return Ticket{}, ShedPaused
	}
	t := Ticket{chat: chat, attachments: attachments}
	if g.cfg.Budget {
		cb := g.chat(chat, now)
		wait = max(wait, cb.wait(1, now))
		if wait > g.cfg.WaitMax {
			return Ticket{}, ShedChat
		}
		if attachments > 0 {
			wait = max(wait, g.attach.wait(attachments, now))
			if wait > g.cfg.WaitMax {
				return Ticket{}, ShedAttachments
			}
			g.attach.take(attachments)
		}
		cb.take(1)
		t.took = true
	}
	t.At = now.Add(wait)
	return t, ""
}

// chat returns chat's bucket, creating it full; when there are many it forgets the full ones.
func (g *Gate) chat(chat string, now time.Time) *bucket {
	b, ok := g.chats[chat]
	if ok {
		return b
	}
	if len(g.chats) >= sweepAt {
		for k, v := range g.chats {
			if v.full(now) {
				delete(g.chats, k)
			}
		}
	}
	b = newBucket(g.cfg.ChatN, g.cfg.ChatPer, now)
	g.chats[chat] = b
	return b
}

// Cancel gives back the tokens of a ticket that was not used.
func (g *Gate) Cancel(t Ticket) {
	if !t.took {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if b, ok := g.chats[t.chat]; ok {
		b.give(1)
	}
	if t.attachments > 0 {
		g.attach.give(t.attachments)
	}
}

// PausedUntil is the end of the pause after a 429, or the zero time when sends may go.
func (g *Gate) PausedUntil(now time.Time) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now.Before(g.pausedUntil) {
		return g.pausedUntil
	}
	return time.Time{}
}

// RateLimited pauses every send after a 429: for retryAfter when the answer named one,
// else for PauseMin doubled per 429 in a row, at most PauseMax. A 429 that arrives while a
// pause is on (for a send that was already out) changes it only by a longer retry time. It returns the pause's end
// and the challenge tokens not seen before, which the caller logs once.
func (g *Gate) RateLimited(now time.Time, retryAfter time.Duration, tokens []string) (until time.Time, fresh []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.last429 = now
	switch {
	case !now.Before(g.pausedUntil):
		pause := retryAfter
		if pause <= 0 {
			pause = g.cfg.PauseMin << min(g.streak, 20)
		}
		g.pausedUntil = now.Add(min(pause, g.cfg.PauseMax))
		g.streak++
	case retryAfter > 0: // paused already: a longer retry time still counts
		if end := now.Add(min(retryAfter, g.cfg.PauseMax)); end.After(g.pausedUntil) {
			g.pausedUntil = end
		}
	}
	if len(g.seenTokens) > 1024 {
		clear(g.seenTokens)
	}
	for _, tok := range tokens {
		if tok == "" { // a plain rate limit's result: no proof asked
			continue
		}
		if g.challenge == "" {
			g.challenge, g.challengeAt = tok, now
		}
		if _, ok := g.seenTokens[tok]; !ok {
			g.seenTokens[tok] = struct{}{}
			fresh = append(fresh, tok)
		}
	}
	return g.pausedUntil, fresh
}

// Last429 is when the last 429 came, or the zero time if none has since start.
func (g *Gate) Last429() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.last429
}

// Sent notes a successful send: the next 429 starts the back-off from PauseMin again, and
// Signal asks for no proof any more.
func (g *Gate) Sent() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.streak, g.challenge = 0, ""
}

// Challenge is the challenge token of the 429 that asked for proof (a captcha) and when it
// came; "" while none is pending. A send that goes, or Lift, ends it.
func (g *Gate) Challenge() (token string, since time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.challenge, g.challengeAt
}

// Lift ends the pause and the pending challenge at once: Signal accepted the captcha.
func (g *Gate) Lift() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pausedUntil, g.streak, g.challenge = time.Time{}, 0, ""
}

// NoteShed counts a shed reply of chat and reports whether to log it now (once per chat
// per LogInterval), with the number shed in the chat since the last line.
func (g *Gate) NoteShed(chat string, now time.Time) (logNow bool, since int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := g.shedLog[chat]
	n.since++
	if !n.at.IsZero() && now.Sub(n.at) < g.cfg.LogInterval {
		g.shedLog[chat] = n
		return false, n.since
	}
	if len(g.shedLog) >= sweepAt {
		for k, v := range g.shedLog {
			if now.Sub(v.at) >= g.cfg.LogInterval {
				delete(g.shedLog, k)
			}
		}
	}
	g.shedLog[chat] = shedNote{at: now}
	return true, n.since
}

// ChatBudget is one chat's budget: its burst n, the period that refills n,
// and the tokens the chat holds at now (n for a chat not seen yet; below zero
// while replies wait ahead of the refill). ok is false with the budget off.
func (g *Gate) ChatBudget(chat string, now time.Time) (n int, period time.Duration, tokens float64, ok bool) {
	if !g.cfg.Budget {
		return 0, 0, 0, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	tokens = float64(g.cfg.ChatN)
	if b, found := g.chats[chat]; found {
		b.refill(now)
		tokens = b.tokens
	}
	return g.cfg.ChatN, g.cfg.ChatPer, tokens, true
}
