package admin

import (
	"context"
	"errors"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/standing"
	"signal-bot/pkg/telemetry"
)

// Account is what the console asks about the bot's Signal account: the
// members its replies do not reach, and the captcha that lifts a rate limit
// Signal asked proof for. *standing.Account is one.
type Account interface {
	Unreachable() standing.Unreachable
	SubmitCaptcha(ctx context.Context, captcha string) error
}

// captchaSite is where an admin solves the captcha Signal asks for.
const captchaSite = "https://signalcaptchas.org/challenge/generate.html"

// The texts of !bot captcha, and its line of !bot status.
const (
	keyCaptchaAccepted key = "bot.captcha_accepted" //
	keyCaptchaRejected key = "bot.captcha_rejected" // %[1]s: the REST API's answer, %[2]s: captchaSite
	keyCaptchaFailed   key = "bot.captcha_failed"   // %[1]s: why it did not reach Signal
	keyCaptchaNone     key = "bot.captcha_none"     //
	keyCaptchaOne      key = "bot.captcha_one"      // more than one word after the verb
	keyCaptchaOff      key = "bot.captcha_off"      // a console without the bot's account
	keyStatusCaptcha   key = "status.captcha"       // %[1]s: since when, %[2]s: captchaSite
)

func captchaTexts() phrases {
	return phrases{
		"pl": {
			usageKey("captcha"): "• !bot captcha <signalcaptcha://…> — przesyła Signalowi rozwiązaną captchę, gdy jej żąda (!bot status to mówi)",
			keyCaptchaAccepted:  "Captcha przyjęta: Signal zdjął limit, wysyłanie wznowione.",
			keyCaptchaRejected:  "Captcha odrzucona (%[1]s). Wysyłanie dalej wstrzymane: rozwiąż nową na %[2]s i przyślij ją od razu.",
			keyCaptchaFailed:    "Nie udało się przesłać captchy (%[1]s). Wysyłanie dalej wstrzymane: spróbuj jeszcze raz.",
			keyCaptchaNone:      "Signal nie żąda teraz captchy: nie ma czego przesyłać.",
			keyCaptchaOne:       "Przyślij sam link signalcaptcha://… z przycisku „Open Signal”, bez spacji.",
			keyCaptchaOff:       "Ten bot nie może przesłać captchy.",
			keyStatusCaptcha:    "Signal żąda captchy (od %[1]s): rozwiąż ją na %[2]s i przyślij mi !bot captcha <link signalcaptcha://…>",
		},
		"en": {
			usageKey("captcha"): "• !bot captcha <signalcaptcha://…> — hands Signal a solved captcha when it asks for one (!bot status says so)",
			keyCaptchaAccepted:  "Captcha accepted: Signal lifted the limit, sends go again.",
			keyCaptchaRejected:  "Captcha rejected (%[1]s). Sends stay paused: solve a fresh one at %[2]s and send it at once.",
			keyCaptchaFailed:    "The captcha could not be submitted (%[1]s). Sends stay paused: try again.",
			keyCaptchaNone:      "Signal is not asking for a captcha now: there is nothing to submit.",
			keyCaptchaOne:       "Send the signalcaptcha://… link of the \"Open Signal\" button alone, without spaces.",
			keyCaptchaOff:       "This bot cannot submit a captcha.",
			keyStatusCaptcha:    "Signal asks for a captcha (since %[1]s): solve one at %[2]s and send me !bot captcha <the signalcaptcha://… link>",
		},
	}
}

// maxCaptchaAnswer bounds the REST API's answer quoted to the admin.
const maxCaptchaAnswer = 200

// captcha is !bot captcha <signalcaptcha://…>: the captcha goes to Signal with
// the pending challenge token (standing.Account.SubmitCaptcha, as typed: signal-cli
// strips the prefix itself), and the admin hears what came back. Accepted,
// the pause after the 429 ends; refused, it stays. The captcha is never
// logged.
func (c *Console) captcha(ctx context.Context, r request) string {
	if len(r.args) != 1 {
		return r.t.text(keyCaptchaOne)
	}
	if c.d.Account == nil {
		return r.t.text(keyCaptchaOff)
	}
	err := c.d.Account.SubmitCaptcha(ctx, r.args[0])
	switch {
	case errors.Is(err, standing.ErrNoChallenge):
		return r.t.text(keyCaptchaNone)
	case errors.Is(err, standing.ErrNoChallenger):
		return r.t.text(keyCaptchaOff)
	}
	c.d.Log.InfoContext(ctx, "captcha submitted in chat", "admin", r.admin, "accepted", err == nil)
	switch {
	case err == nil:
		return r.t.text(keyCaptchaAccepted)
	case errors.Is(err, signalapi.ErrBadRequest):
		return r.t.format(keyCaptchaRejected, captchaAnswer(err), captchaSite)
	}
	return r.t.format(keyCaptchaFailed, captchaAnswer(err))
}

// captchaAnswer is what the REST API answered a captcha, or why it could not
// be asked, for the admin: redacted and cut short.
func captchaAnswer(err error) string {
	msg := telemetry.RedactErr(err)
	var e *signalapi.APIError
	if errors.As(err, &e) && e.Message != "" {
		msg = telemetry.RedactText(e.Message)
	}
	return commands.Truncate(msg, maxCaptchaAnswer)
}

// statusCaptcha is !bot status's line while Signal asks for a captcha: since
// when, and what to do.
func (c *Console) statusCaptcha(_ time.Time, t texts) string {
	if tok, since := c.d.Gate.Challenge(); tok != "" {
		return t.format(keyStatusCaptcha, stamp(since), captchaSite)
	}
	return ""
}
