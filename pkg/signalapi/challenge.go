package signalapi

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// CaptchaPrefix starts the link signalcaptchas.org hands out once a captcha
// is solved. signal-cli removes it itself before it submits the captcha
// (ManagerImpl.submitRateLimitRecaptchaChallenge), and the REST API's own
// example carries it, so a captcha goes on with or without it.
const CaptchaPrefix = "signalcaptcha://"

// SubmitChallenge lifts a rate limit that asks for proof: POST
// /v1/accounts/<number>/rate-limit-challenge with the challenge token of the
// 429 and the solved captcha, answered 204. The REST API refuses an empty
// token or captcha itself (400); signal-cli's refusal of the captcha
// ("Captcha rejected, …") and any other failure of the call come back as a
// plain 400 {"error":…} too. Nothing is retried: a captcha is good once.
func (c *Client) SubmitChallenge(ctx context.Context, token, captcha string) error {
	path := "/v1/accounts/" + url.PathEscape(c.cfg.Number) + "/rate-limit-challenge"
	return c.callJSON(ctx, "rate-limit challenge", http.MethodPost, path, struct {
		ChallengeToken string `json:"challenge_token"`
		Captcha        string `json:"captcha"`
	}{token, strings.TrimSpace(captcha)})
}
