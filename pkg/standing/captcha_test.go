package standing

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
)

// When Signal demands a captcha, a send's 429 leaves the challenge pending
// and the sends paused, and the log says what to do; SubmitCaptcha reaches the simulator's challenge
// endpoint with the token and the captcha. A refused captcha comes back as
// the REST API's 400 and the pause stays; the accepted one ends the pause
// and the challenge, and sends go again.
func TestSubmitCaptcha(t *testing.T) {
	s := sim.New(sim.Config{})
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	hc := &http.Client{}
	t.Cleanup(hc.CloseIdleConnections)
	api := signalapi.New(signalapi.Config{
		BaseURL: url, Number: s.Number(), CallTimeout: 10 * time.Second, SendTimeout: 10 * time.Second, ReadTimeout: time.Minute,
	}, hc)
	var logs bytes.Buffer
	gate := outbound.New(outbound.Config{RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour})
	a := New(Deps{Gate: gate, Log: slog.New(slog.NewTextHandler(&logs, nil)), Challenger: api})
	ctx := context.Background()
	if err := a.SubmitCaptcha(ctx, "signalcaptcha://x"); !errors.Is(err, ErrNoChallenge) {
		t.Fatalf("SubmitCaptcha with no challenge = %v; want ErrNoChallenge", err)
	}

	s.SetCaptcha(true, "signalcaptcha://good")
	out := signalapi.Outgoing{Recipient: sim.DefaultSender, Text: "hi"}
	_, err = api.Send(ctx, out)
	if e, ok := signalapi.RateLimit(err); !ok || e.Challenge() != "sim-captcha-1" {
		t.Fatalf("send during the demand: %v; want a 429 with the token", err)
	}
	a.Failed(ctx, "pomoc", out.Recipient, true, err, time.Now())
	if tok, _ := gate.Challenge(); tok != "sim-captcha-1" || gate.PausedUntil(time.Now()).IsZero() {
		t.Fatalf("after the 429: challenge %q, paused %v; want the token and a pause", tok, gate.PausedUntil(time.Now()))
	}
	if !strings.Contains(logs.String(), "!bot captcha") || !strings.Contains(logs.String(), "challenge_tokens=sim-captcha-1") {
		t.Errorf("the log does not say what to do:\n%s", logs.String())
	}

	err = a.SubmitCaptcha(ctx, "signalcaptcha://bad")
	if !errors.Is(err, signalapi.ErrBadRequest) || !strings.Contains(err.Error(), "Captcha rejected") {
		t.Errorf("a refused captcha: %v; want the REST API's 400", err)
	}
	if tok, _ := gate.Challenge(); tok == "" || gate.PausedUntil(time.Now()).IsZero() {
		t.Error("a refused captcha ended the pause or the challenge")
	}
	if err := a.SubmitCaptcha(ctx, " signalcaptcha://good "); err != nil {
		t.Fatalf("the good captcha: %v", err)
	}
	if tok, _ := gate.Challenge(); tok != "" || !gate.PausedUntil(time.Now()).IsZero() {
		t.Error("an accepted captcha left the pause or the challenge")
	}
	got := s.Challenges()
	if len(got) != 2 || got[1].Token != "sim-captcha-1" || got[1].Captcha != "signalcaptcha://good" || !got[1].Accepted || got[0].Accepted {
		t.Errorf("the simulator's challenge endpoint got %+v; want the refused one, then the good one with the token", got)
	}
	if strings.Contains(logs.String(), "good") || strings.Contains(logs.String(), "bad\"") {
		t.Errorf("a captcha is in the log:\n%s", logs.String())
	}
	if _, err := api.Send(ctx, out); err != nil {
		t.Errorf("send after the captcha: %v", err)
	}
}
