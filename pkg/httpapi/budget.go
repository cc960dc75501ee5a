package httpapi

import (
	"time"

	"signal-bot/pkg/signalid"
)

// SendBudget is the bot's outbound budget per chat (SEND_BUDGET_CHAT) as
// /healthz shows it, with what each test group holds of it now, so that
// tool/latency can pace its selftests to fit.
type SendBudget struct {
	ChatBurst   int     `json:"chat_burst"`    // replies a chat may get at once
	ChatPeriodS float64 `json:"chat_period_s"` // seconds that refill chat_burst
	// TestChats is each test group's tokens: replies it may get now without
	// waiting (below zero while replies wait ahead of the refill).
	TestChats []TestChatBudget `json:"test_chats"`
}

// TestChatBudget is one test group's share of the budget, by alias.
type TestChatBudget struct {
	Group  string  `json:"group"`
	Tokens float64 `json:"tokens"`
}

// sendBudget is the budget for /healthz; nil with SEND_BUDGET=off.
func (s *Server) sendBudget(now time.Time) *SendBudget {
	gate := s.d.Bot.Gate()
	var sb *SendBudget
	for _, g := range s.d.Groups.TestAliases() {
		n, per, tokens, ok := gate.ChatBudget(signalid.RESTGroupID(g[1]), now)
		if !ok {
			return nil
		}
		if sb == nil {
			sb = &SendBudget{ChatBurst: n, ChatPeriodS: per.Seconds(), TestChats: []TestChatBudget{}}
		}
		sb.TestChats = append(sb.TestChats, TestChatBudget{Group: g[0], Tokens: tokens})
	}
	if sb == nil { // no test group: the budget all the same
		if n, per, _, ok := gate.ChatBudget("", now); ok {
			sb = &SendBudget{ChatBurst: n, ChatPeriodS: per.Seconds(), TestChats: []TestChatBudget{}}
		}
	}
	return sb
}
