package sim

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// captchaRejected is signal-cli's text for a captcha Signal refused (CaptchaRejectedErrorException,
// error -6), which the REST API answers as a plain 400 {"error":…}.
const captchaRejected = "Captcha rejected, it may be outdated, already used or solved from a different IP address."

// captchaPrefix starts a solved captcha's link; signal-cli strips it before it submits one.
const captchaPrefix = "signalcaptcha://"

// Challenge is one POST /v1/accounts/{number}/rate-limit-challenge the simulator answered.
type Challenge struct {
	Token    string    `json:"challenge_token"`
	Captcha  string    `json:"captcha"`  // as submitted
	Accepted bool      `json:"accepted"` // 204; false: 400
	At       time.Time `json:"at"`
}

// captchaState is Signal asking the account for proof before it sends again.
type captchaState struct {
	demand bool   // every /v2/send answers 429 with token
	token  string // the challenge token of the demand
	accept string // the one captcha accepted (without its prefix); "": any
	seq    uint64
	log    []Challenge
}

// SetCaptcha makes Signal demand a captcha (on) or stop demanding one. While it demands one,
// every /v2/send is answered 429 with a challenge token, as for a proof-required rate limit,
// until a captcha is accepted at the rate-limit-challenge endpoint. accept is the captcha
// Signal takes, with or without its signalcaptcha:// prefix; "" takes any. Switching the
// demand on makes a new token.
func (s *Sim) SetCaptcha(on bool, accept string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &s.captcha
	if on && !c.demand {
		c.seq++
		c.token = "sim-captcha-" + strconv.FormatUint(c.seq, 10)
	}
	c.demand, c.accept = on, strings.TrimPrefix(accept, captchaPrefix)
}

// Challenges returns the submissions to the rate-limit-challenge endpoint, oldest first.
func (s *Sim) Challenges() []Challenge {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Challenge{}, s.captcha.log...)
}

// captchaDemanded returns the challenge token while a captcha is demanded.
func (s *Sim) captchaDemanded() (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.captcha.token, s.captcha.demand
}

// handleChallenge serves POST /v1/accounts/{number}/rate-limit-challenge: the REST API's
// checks, then signal-cli's submission. The demand's token with the accepted captcha lifts
// the demand (204); anything else is Signal's refusal, a 400 with signal-cli's text.
func (s *Sim) handleChallenge(w http.ResponseWriter, r *http.Request) {
	number, err := url.PathUnescape(r.PathValue("number"))
	if err != nil || number == "" {
		writeError(w, http.StatusBadRequest, "Couldn't process request - number missing")
		return
	}
	body, err := readBody(r)
	var req struct {
		ChallengeToken string `json:"challenge_token"`
		Captcha        string `json:"captcha"`
	}
	if err != nil || json.Unmarshal(body, &req) != nil {
		writeError(w, http.StatusBadRequest, "Couldn't process request - invalid request")
		return
	}
	switch {
	case req.ChallengeToken == "":
		writeError(w, http.StatusBadRequest, "Couldn't process request - challenge token missing")
		return
	case req.Captcha == "":
		writeError(w, http.StatusBadRequest, "Couldn't process request - captcha missing")
		return
	case number != s.number:
		writeError(w, http.StatusBadRequest, msgNoAccount)
		return
	}
	if !s.submitCaptcha(req.ChallengeToken, req.Captcha) {
		writeError(w, http.StatusBadRequest, captchaRejected)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// submitCaptcha records a submission and reports whether Signal accepts it: a captcha is
// accepted for the token of the demand in force (or, with none, any token: Signal has
// nothing to lift), once.
func (s *Sim) submitCaptcha(token, captcha string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &s.captcha
	bare := strings.TrimPrefix(captcha, captchaPrefix)
	ok := bare != "" && (c.accept == "" || bare == c.accept) && (!c.demand || token == c.token)
	if ok {
		c.demand = false
	}
	c.log = append(c.log, Challenge{Token: token, Captcha: captcha, Accepted: ok, At: time.Now()})
	return ok
}
