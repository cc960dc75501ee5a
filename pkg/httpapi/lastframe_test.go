package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// /healthz says when the last frame came (any frame: a receipt counts) and
// /metrics how long ago; with SILENCE_DEGRADED unset a silent bot stays ok.
func TestLastFrameHeard(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	if got := h.Health()["last_frame_at"]; got != nil {
		t.Fatalf("last_frame_at before any frame = %v; want null", got)
	}
	before := time.Now()
	if _, err := h.Sim.Deliver(sim.Message{From: botest.Alice, Kind: sim.KindReceipt}); err != nil {
		t.Fatal(err)
	}
	h.WaitIdle(1)
	m := h.Health()
	at, err := time.Parse(time.RFC3339Nano, asString(m["last_frame_at"]))
	if err != nil || at.Before(before) || at.After(time.Now()) {
		t.Errorf("last_frame_at = %v (%v); want the receipt's read time", m["last_frame_at"], err)
	}
	if m["status"] != "ok" {
		t.Errorf("status = %v, reasons %v; want ok (SILENCE_DEGRADED is off)", m["status"], m["reasons"])
	}
	if got := botest.Value(h.Scrape(), "signal_bot_last_frame_age_seconds", nil); got < 0 {
		t.Errorf("signal_bot_last_frame_age_seconds = %v; want it exported", got)
	}
}

// With SILENCE_DEGRADED set, a bot that hears nothing for longer is
// degraded, with the reason. (The bound is short, but long enough for Start,
// which waits for a 200; the recovery with a frame is TestSilence's, on its
// own clock.)
func TestSilenceDegraded(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"SILENCE_DEGRADED": "5s"})
	h.Start()
	for i := 0; ; i++ {
		res, err := http.Get(h.URL() + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable {
			break
		}
		if i > 6000 {
			t.Fatalf("/healthz still %s a minute after the start with SILENCE_DEGRADED=5s and no frame", res.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
	m := h.Health()
	reasons, _ := m["reasons"].([]any)
	if m["status"] != "degraded" || len(reasons) != 1 || !strings.Contains(asString(reasons[0]), "nothing heard from signal-cli-rest-api for") ||
		!strings.Contains(asString(reasons[0]), "no frame since the start") {
		t.Errorf("/healthz = %v, reasons %v; want degraded for the silence alone", m["status"], reasons)
	}
}

func asString(v any) string {
	s, _ := v.(string)
	return s
}
