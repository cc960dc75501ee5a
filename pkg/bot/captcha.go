package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"signal-bot/pkg/telemetry"
)

// Challenger submits a solved captcha for a challenge token (POST
// /v1/accounts/<number>/rate-limit-challenge); *signalapi.Client is one.
type Challenger interface {
	SubmitChallenge(ctx context.Context, token, captcha string) error
}

// Errors of SubmitCaptcha that never reached the REST API.
var (
	ErrNoChallenge  = errors.New("no captcha asked for: Signal sent no challenge")
	ErrNoChallenger = errors.New("no REST API to submit a captcha to")
	ErrNoCaptcha    = errors.New("no captcha given")
)

// SubmitCaptcha lifts a rate limit that asked for proof: it submits captcha
// (the signalcaptcha://… link of a captcha solved at
// https://signalcaptchas.org/challenge/generate.html, with or without that
// prefix: signal-cli strips it) with the pending challenge token. Accepted,
// the pause ends and sends go at once; refused (the REST API's 400), the
// error says why and the pause stays. The captcha is never logged: it is
// good once, but it is the account's.
func (b *Bot) SubmitCaptcha(ctx context.Context, captcha string) error {
	captcha = strings.TrimSpace(captcha)
	token, _ := b.d.Gate.Challenge()
	switch {
	case b.d.Challenger == nil:
		return ErrNoChallenger
	case token == "":
		return ErrNoChallenge
	case captcha == "":
		return ErrNoCaptcha
	}
	if err := b.d.Challenger.SubmitChallenge(ctx, token, captcha); err != nil {
		b.d.Log.WarnContext(ctx, "captcha not accepted: sends stay paused", "challenge_token", token, "err", telemetry.RedactErr(err))
		return fmt.Errorf("submit captcha: %w", err)
	}
	b.d.Gate.Lift()
	b.d.Log.InfoContext(ctx, "captcha accepted: the rate limit is lifted, sends go again", "challenge_token", token)
	return nil
}
