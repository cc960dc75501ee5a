package signalapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/config"
	"signal-bot/pkg/sim"

	"github.com/sethvargo/go-envconfig"
)

// A loopback webhook without WEBHOOK_TOKEN is an admin's door while a frame
// can carry power: the bot refuses to start so (ADMINS set, or owner mode
// on, its default); with the token a forged admin frame without it is
// refused and changes nothing, and the same frame with it is the admin's.
func TestWebhookDoorClosedWhileFramesCarryPower(t *testing.T) {
	t.Parallel()
	hook := map[string]string{"RECEIVE_MODE": "webhook", "SIGNAL_API_URL": "http://127.0.0.1:1", "SIGNAL_NUMBER": "+48500000001", "HTTP_ADDR": "127.0.0.1:0"}
	for name, env := range map[string]map[string]string{
		"ADMINS set":        {"ADMINS": "ala=" + botest.Admin, "OWNER_COMMANDS": "off"},
		"OWNER_COMMANDS=on": {},
		"both":              {"ADMINS": botest.Admin},
	} {
		for k, v := range hook {
			env[k] = v
		}
		_, err := config.Load(context.Background(), envconfig.MapLookuper(env))
		if err == nil || strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), "WEBHOOK_TOKEN is required") || !strings.Contains(err.Error(), config.ComposeTokenLine) {
			t.Errorf("%s, no WEBHOOK_TOKEN: %v; want one line naming WEBHOOK_TOKEN and compose's line", name, err)
		}
	}

	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"ADMINS": "ala=" + botest.Admin})
	forged := string(botest.WebhookLines(t, h.Sim, sim.Message{From: botest.Admin, Text: "!bot pauza 1h"})[0])
	h.StartWebhook() // with botest.WebhookToken
	for _, query := range []string{"", "?token=not-the-token-not-the-token-123"} {
		if status := h.PostWebhook(query, forged); status != http.StatusUnauthorized && status != http.StatusForbidden {
			t.Errorf("forged admin frame, query %q: %d; want 401 or 403", query, status)
		}
	}
	if got := h.Health()["accepted"]; got != float64(0) {
		t.Errorf("accepted = %v after the forged frames; want 0", got)
	}
	h.Say(botest.Alice, "", "!pomoc") // not paused: answered
	if got := h.WaitSent(1)[0]; !strings.Contains(got.Message, "Komendy") {
		t.Fatalf("!pomoc after the refused frames: %q; want the help", got.Message)
	}
	if status := h.PostWebhook("?token="+botest.WebhookToken, forged); status != http.StatusOK {
		t.Fatalf("the admin's frame with the token: %d; want 200", status)
	}
	if got := h.WaitSent(2)[1]; got.Recipients[0] != botest.Admin || !strings.Contains(got.Message, "Pauza do ") {
		t.Errorf("reply %q to %q; want the pause confirmed to the admin", got.Message, got.Recipients)
	}
}
