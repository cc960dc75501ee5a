package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// /_selftest answers without a token on loopback because its frames carry
// no power: they come from SELFTEST_SENDER into a test group, and !bot is
// never answered in a group, even when that sender is listed in ADMINS.
func TestSelftestCarriesNoPower(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"ADMINS": "ala=" + botest.Admin, "SELFTEST_SENDER": botest.Admin})
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
	h.Say(botest.Alice, "testbot", "!pomoc") // not paused: answered
	if got := h.WaitSent(1)[0]; !strings.Contains(got.Message, "Komendy") {
		t.Errorf("!pomoc after the selftest: %q; want the help (no pause)", got.Message)
	}
}
