package botest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/sim"
)

// This file holds the waits and reads of a started bot that tests of several
// packages share.

// RepliesTo counts sends per recipient.
func RepliesTo(sent []sim.Sent) map[string]int {
	n := map[string]int{}
	for _, s := range sent {
		n[s.Recipients[0]]++
	}
	return n
}

// Settle delivers a last !pomoc from sentinel in a direct chat, waits for its
// reply, then for the bot to finish everything it accepted: the socket
// delivers in order, so every frame before the sentinel has been accepted by
// then. It returns the bot's accepted count.
func (h *Harness) Settle(sentinel string) int {
	h.T.Helper()
	h.Say(sentinel, "", "!pomoc")
	testkit.WaitFor(h.T, "the sentinel's reply", func() bool { return RepliesTo(h.Sim.Sent())[sentinel] == 1 })
	accepted := int(h.Health()["accepted"].(float64))
	h.WaitIdle(accepted)
	return accepted
}

// WaitReconnected waits until the simulator has the bot's one websocket
// again and the bot says it is connected, and fails the test if that takes
// more than 5 s (the redial's backoff is capped at 2 s).
func (h *Harness) WaitReconnected() {
	h.T.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if h.Sim.Stats().Subscribers == 1 && h.Health()["connected"] == true {
			return
		}
	}
	h.T.Fatal("bot did not reconnect within 5 s")
}

// WaitLog waits for a log line containing sub.
func (h *Harness) WaitLog(sub string) {
	h.T.Helper()
	testkit.WaitFor(h.T, fmt.Sprintf("a log line with %q", sub), func() bool { return strings.Contains(h.Logs.String(), sub) })
}

// WaitDone waits (60 s at most) until the bot has taken in n frames,
// accepted or dropped (a frame dropped by the sender queue is never
// accepted), and finished them all.
func (h *Harness) WaitDone(n int) {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		m := h.Health()
		if m["accepted"].(float64)+m["dropped"].(float64) == float64(n) && m["active"] == float64(0) && m["queue_depth"] == float64(0) {
			return
		}
		select {
		case <-ctx.Done():
			h.T.Fatalf("bot not done with %d frames: %v", n, m)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Healthz reads /healthz with its status code.
func (h *Harness) Healthz() (int, map[string]any) {
	h.T.Helper()
	res, err := http.Get(h.URL() + "/healthz")
	if err != nil {
		h.T.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		h.T.Fatal(err)
	}
	return res.StatusCode, m
}

// Reasons are /healthz's reasons, joined.
func Reasons(m map[string]any) string {
	rs, _ := m["reasons"].([]any)
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, fmt.Sprint(r))
	}
	return strings.Join(out, "; ")
}

// PostWebhook POSTs body to the bot's webhook endpoint (query: "?token=…" or
// "") and returns the status.
func (h *Harness) PostWebhook(query, body string) int {
	h.T.Helper()
	res, err := http.Post(h.URL()+"/_webhook"+query, "application/json", strings.NewReader(body))
	if err != nil {
		h.T.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// Ask has from say text and returns the one reply it gets.
func (h *Harness) Ask(from, group, text string) sim.Sent {
	h.T.Helper()
	n := len(h.Sim.Sent())
	h.Say(from, group, text)
	return h.WaitSent(n + 1)[n]
}

// AskNothing has from say text, waits until the bot has finished the frame
// (its accepted-th), and fails the test if anything was sent.
func (h *Harness) AskNothing(accepted int, from, group, text string) {
	h.T.Helper()
	n := len(h.Sim.Sent())
	h.Say(from, group, text)
	h.WaitIdle(accepted)
	if sent := h.Sim.Sent(); len(sent) != n {
		h.T.Errorf("%s from %s: the bot sent %q; want nothing", text, from, sent[n].Message)
	}
}
