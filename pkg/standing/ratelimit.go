package standing

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"signal-bot/pkg/signalapi"
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

// CaptchaAdvice is what the log and /healthz tell the operator to do when
// Signal asks for proof: the way out through the bot.
const CaptchaAdvice = "solve a captcha at https://signalcaptchas.org/challenge/generate.html, copy the signalcaptcha://… link " +
	"of its \"Open Signal\" button and send \"!bot captcha <that link>\" to the bot, as an admin in a direct chat or as the owner in Note-to-Self"

// ChallengeCommand is the operator's command that lifts a rate limit with token: a captcha
// solved at https://signalcaptchas.org/challenge/generate.html goes in place of the dots.
func ChallengeCommand(url, token string) string {
	return `curl -X POST -H 'Content-Type: application/json' -d '{"challenge_token":"` + token +
		`","captcha":"signalcaptcha://…"}' '` + url + `'`
}

// rateLimited takes a send's 429: it pauses every send (outbound.Gate's
// policy: its retry time when it names one, else RATE_LIMIT_PAUSE doubled per
// 429 in a row up to RATE_LIMIT_PAUSE_MAX); a 429 that asks for proof logs,
// once per token, what to do.
func (a *Account) rateLimited(ctx context.Context, err error) {
	e, ok := signalapi.RateLimit(err)
	if !ok {
		return
	}
	until, fresh := a.d.Gate.RateLimited(time.Now(), e.RetryAfter, e.ChallengeTokens)
	args := []any{"paused_until", until.UTC(), "retry_after_given", e.RetryAfter > 0}
	if len(fresh) > 0 {
		args = append(args, "captcha_required", true, "challenge_tokens", strings.Join(fresh, ","), "do", CaptchaAdvice,
			"or_run", ChallengeCommand(a.d.ChallengeURL, fresh[0]))
	}
	a.d.Log.ErrorContext(ctx, "Signal rate-limited the bot's account: every send is paused, the refused reply is not retried", args...)
}

// rateLimitedRecipients pauses every send after a 201 that named recipients
// Signal refused for a rate limit, as a 429 without a retry time would (the
// REST API passes on no retry time nor token for them), and logs the pause
// once when it begins.
func (a *Account) rateLimitedRecipients(ctx context.Context, n int, now time.Time) {
	was := a.d.Gate.PausedUntil(now)
	until, _ := a.d.Gate.RateLimited(now, 0, nil)
	if !until.Equal(was) {
		a.d.Log.WarnContext(ctx, "Signal rate-limited recipients of a reply that others got: every send is paused",
			"recipients", n, "paused_until", until.UTC())
	}
}

// SubmitCaptcha lifts a rate limit that asked for proof: it submits captcha
// (the signalcaptcha://… link of a captcha solved at
// https://signalcaptchas.org/challenge/generate.html, with or without that
// prefix: signal-cli strips it) with the pending challenge token. Accepted,
// the pause ends and sends go at once; refused (the REST API's 400), the
// error says why and the pause stays. The captcha is never logged: it is
// good once, but it is the account's.
func (a *Account) SubmitCaptcha(ctx context.Context, captcha string) error {
	captcha = strings.TrimSpace(captcha)
	token, _ := a.d.Gate.Challenge()
	switch {
	case a.d.Challenger == nil:
		return ErrNoChallenger
	case token == "":
		return ErrNoChallenge
	case captcha == "":
		return ErrNoCaptcha
	}
	if err := a.d.Challenger.SubmitChallenge(ctx, token, captcha); err != nil {
		a.d.Log.WarnContext(ctx, "captcha not accepted: sends stay paused", "challenge_token", token, "err", telemetry.RedactErr(err))
		return fmt.Errorf("submit captcha: %w", err)
	}
	a.d.Gate.Lift()
	a.d.Log.InfoContext(ctx, "captcha accepted: the rate limit is lifted, sends go again", "challenge_token", token)
	return nil
}
