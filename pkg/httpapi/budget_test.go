package httpapi_test

import (
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// /healthz shows the outbound budget per chat and what the test group holds
// of it, by alias, so tool/latency can pace to it; null with the budget off.
func TestHealthSendBudget(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"SEND_BUDGET": "on", "SEND_BUDGET_CHAT": "5/100s"})
	h.Start()
	budget := func() (burst, period, tokens float64) {
		t.Helper()
		b, _ := h.Health()["send_budget"].(map[string]any)
		chats, _ := b["test_chats"].([]any)
		if len(chats) != 1 {
			t.Fatalf("send_budget = %v; want one test chat", h.Health()["send_budget"])
		}
		c, _ := chats[0].(map[string]any)
		if c["group"] != "testbot" || len(c) != 2 {
			t.Errorf("test chat %v; want testbot by its alias, and its tokens", c)
		}
		burst, _ = b["chat_burst"].(float64)
		period, _ = b["chat_period_s"].(float64)
		tokens, _ = c["tokens"].(float64)
		return burst, period, tokens
	}
	if burst, period, tokens := budget(); burst != 5 || period != 100 || tokens != 5 {
		t.Errorf("before any reply: burst %v per %v s, %v tokens; want 5 per 100 s, 5", burst, period, tokens)
	}
	h.Selftest("!pomoc")
	h.Selftest("!pomoc")
	// One token comes back every 20 s: the test takes far less.
	if _, _, tokens := budget(); tokens < 3 || tokens > 3.5 {
		t.Errorf("after two replies %v tokens; want 3 and a little refill", tokens)
	}

	off := botest.New(t, sim.Config{Lossless: true}, map[string]string{"SEND_BUDGET": "off"})
	off.Start()
	if b, ok := off.Health()["send_budget"]; !ok || b != nil {
		t.Errorf("send_budget with SEND_BUDGET=off = %v (present %v); want null", b, ok)
	}
}
