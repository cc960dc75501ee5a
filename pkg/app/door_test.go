package app_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/config"
	"signal-bot/pkg/sim"
)

// forgeLine returns the JSON-RPC line the simulated REST API would POST for
// text from `from` in a direct chat: what a local process that knows the
// wire format can write to the webhook itself.
func forgeLine(t *testing.T, s *sim.Sim, from, text string) string {
	t.Helper()
	var mu sync.Mutex
	var line string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		line = string(b)
		mu.Unlock()
	}))
	defer srv.Close()
	if err := s.SetWebhookURL(srv.URL); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Deliver(sim.Message{From: from, Text: text}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the simulator's POST", func() bool { mu.Lock(); defer mu.Unlock(); return line != "" })
	return line
}

// A loopback webhook without WEBHOOK_TOKEN is an admin's door while a frame
// can carry power: the bot refuses to start so (ADMINS set, or owner mode
// on, its default); with the token a forged admin frame without it is
// refused and changes nothing, and the same frame with it is the admin's.
func TestWebhookDoorClosedWhileFramesCarryPower(t *testing.T) {
	hook := map[string]string{"RECEIVE_MODE": "webhook", "SIGNAL_API_URL": "http://127.0.0.1:1", "SIGNAL_NUMBER": "+48500000001", "HTTP_ADDR": "127.0.0.1:0"}
	for name, env := range map[string]map[string]string{
		"ADMINS set":        {"ADMINS": "ala=" + admin, "OWNER_COMMANDS": "off"},
		"OWNER_COMMANDS=on": {},
		"both":              {"ADMINS": admin},
	} {
		for k, v := range hook {
			env[k] = v
		}
		_, err := config.Load(context.Background(), envconfig.MapLookuper(env))
		if err == nil || strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), "WEBHOOK_TOKEN is required") || !strings.Contains(err.Error(), config.ComposeTokenLine) {
			t.Errorf("%s, no WEBHOOK_TOKEN: %v; want one line naming WEBHOOK_TOKEN and compose's line", name, err)
		}
	}

	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"ADMINS": "ala=" + admin})
	forged := forgeLine(t, h.Sim, admin, "!bot pauza 1h")
	h.StartWebhook() // with botest.WebhookToken
	for _, query := range []string{"", "?token=not-the-token-not-the-token-123"} {
		if status := postWebhook(t, h, query, forged); status != http.StatusUnauthorized && status != http.StatusForbidden {
			t.Errorf("forged admin frame, query %q: %d; want 401 or 403", query, status)
		}
	}
	if got := h.Health()["accepted"]; got != float64(0) {
		t.Errorf("accepted = %v after the forged frames; want 0", got)
	}
	h.Say(alice, "", "!pomoc") // not paused: answered
	if got := h.WaitSent(1)[0]; !strings.Contains(got.Message, "Komendy") {
		t.Fatalf("!pomoc after the refused frames: %q; want the help", got.Message)
	}
	if status := postWebhook(t, h, "?token="+botest.WebhookToken, forged); status != http.StatusOK {
		t.Fatalf("the admin's frame with the token: %d; want 200", status)
	}
	if got := h.WaitSent(2)[1]; got.Recipients[0] != admin || !strings.Contains(got.Message, "Pauza do ") {
		t.Errorf("reply %q to %q; want the pause confirmed to the admin", got.Message, got.Recipients)
	}
}

// /_selftest answers without a token on loopback because its frames carry
// no power: they come from SELFTEST_SENDER into a test group, and !bot is
// never answered in a group, even when that sender is listed in ADMINS.
func TestSelftestCarriesNoPower(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"ADMINS": "ala=" + admin, "SELFTEST_SENDER": admin})
	h.Start()
	res, err := http.Post(h.URL()+"/_selftest", "application/json", strings.NewReader(`{"group":"testbot","text":"!bot pauza 1h"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "ignored") {
		t.Errorf("/_selftest !bot pauza 1h: %d %s; want 502, the frame ignored", res.StatusCode, body)
	}
	h.Say(alice, "testbot", "!pomoc") // not paused: answered
	if got := h.WaitSent(1)[0]; !strings.Contains(got.Message, "Komendy") {
		t.Errorf("!pomoc after the selftest: %q; want the help (no pause)", got.Message)
	}
}
