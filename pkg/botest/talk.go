package botest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"signal-bot/pkg/sim"
	"signal-bot/pkg/telemetry"
)

// This file holds what a test does with a started bot: send it messages and
// read what it sent, its /healthz and its timing blocks.

// Say delivers a text message; group "" is a direct chat.
func (h *Harness) Say(from, group, text string) {
	h.T.Helper()
	if _, err := h.Sim.Deliver(sim.Message{From: from, Name: "Tester", Group: group, Text: text}); err != nil {
		h.T.Fatal(err)
	}
}

// WaitSent waits for n sends (60 s at most: the suite runs under -race on shared cores) and returns all sends so far.
func (h *Harness) WaitSent(n int) []sim.Sent {
	h.T.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sent, err := h.Sim.WaitSent(ctx, n)
	if err != nil {
		h.T.Fatalf("waiting for %d sends: %v (got %d)", n, err, len(h.Sim.Sent()))
	}
	return sent
}

// Health reads /healthz.
func (h *Harness) Health() map[string]any {
	h.T.Helper()
	res, err := http.Get("http://" + h.Bot.HTTPAddr() + "/healthz")
	if err != nil {
		h.T.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		h.T.Fatal(err)
	}
	return m
}

// WaitIdle waits until the bot accepted n frames and finished them all.
func (h *Harness) WaitIdle(accepted int) {
	h.T.Helper()
	for range 12000 { // 60 s at most
		m := h.Health()
		if m["accepted"] == float64(accepted) && m["active"] == float64(0) && m["queue_depth"] == float64(0) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	h.T.Fatalf("bot not idle after %d frames: %v", accepted, h.Health())
}

// TestGroupRecipient is the REST id of the simulator's test group.
func TestGroupRecipient() string { return sim.TestGroup().ID() }

// Selftest posts text to the bot's /_selftest in the test group and returns
// the frame's timing block; anything but 200 fails the test.
func (h *Harness) Selftest(text string) telemetry.Block {
	h.T.Helper()
	body, _ := json.Marshal(map[string]string{"group": "testbot", "text": text})
	res, err := http.Post(h.URL()+"/_selftest", "application/json", bytes.NewReader(body))
	if err != nil {
		h.T.Fatal(err)
	}
	defer res.Body.Close()
	var b telemetry.Block
	if err := json.NewDecoder(res.Body).Decode(&b); err != nil || res.StatusCode != http.StatusOK {
		h.T.Fatalf("POST /_selftest %s: %s (%v)", text, res.Status, err)
	}
	return b
}
