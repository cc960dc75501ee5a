package signalapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Sentinel errors for the REST API's failure classes; match with errors.Is.
var (
	ErrBadRequest  = errors.New("rejected by signal-cli-rest-api")
	ErrRateLimited = errors.New("rate limited by Signal")
	ErrUnavailable = errors.New("signal-cli-rest-api cannot reach signal-cli")
	// ErrUntrustedIdentity is the 400 of a send whose every recipient failed
	// for a changed safety number: signal-cli's error -4, which the REST
	// API words as untrustedKeysMessage. One recipient of several failing so
	// is a 201 with IDENTITY_FAILURE instead.
	ErrUntrustedIdentity = errors.New("recipient's safety number changed")
)

// untrustedKeysMessage is the REST API's text for signal-cli's error -4
// (UNTRUSTED_KEY_ERROR; src/client/jsonrpc2.go, getRaw).
const untrustedKeysMessage = "Unable to complete request due to untrusted recipient keys"

// APIError is a non-2xx answer of the REST API.
type APIError struct {
	Status          int
	Message         string
	ChallengeTokens []string // with 429: lift the limit via /v1/accounts/<n>/rate-limit-challenge
	// RetryAfter is the answer's Retry-After header, 0 without one. The released REST API
	// sends none with its 429; a proxy in front of it, or a later release, may.
	RetryAfter time.Duration
}

// retryAfter reads a Retry-After header: whole seconds or an HTTP date; 0 when absent or bad.
func retryAfter(h string, now time.Time) time.Duration {
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		return max(time.Duration(s)*time.Second, 0)
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// Challenge is the first challenge token of a 429 that asks for proof (a
// captcha), "" for a plain rate limit. The REST API lists one token per
// recipient result of signal-cli's error -5, and a result without a token
// (a plain rate limit: signal-cli leaves "token" out) becomes "".
func (e *APIError) Challenge() string {
	for _, t := range e.ChallengeTokens {
		if t != "" {
			return t
		}
	}
	return ""
}

// RateLimit returns the 429 in err's chain, if there is one.
func RateLimit(err error) (*APIError, bool) {
	var e *APIError
	if errors.As(err, &e) && e.Status == 429 {
		return e, true
	}
	return nil, false
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = "(empty body)"
	}
	return fmt.Sprintf("status %d: %s", e.Status, msg)
}

// Is maps the status onto the sentinel errors.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrBadRequest:
		return e.Status == 400
	case ErrRateLimited:
		return e.Status == 429
	case ErrUnavailable:
		return e.Status >= 500
	case errEmpty500:
		return e.Status == 500 && e.Message == ""
	case ErrUntrustedIdentity:
		return e.Status == 400 && e.Message == untrustedKeysMessage
	}
	return false
}

func apiError(status int, body []byte) *APIError {
	e := &APIError{Status: status}
	var v struct {
		Error           string   `json:"error"`
		ChallengeTokens []string `json:"challenge_tokens"`
	}
	if json.Unmarshal(body, &v) == nil && v.Error != "" {
		e.Message, e.ChallengeTokens = v.Error, v.ChallengeTokens
		return e
	}
	// Some 400s are text/plain ("Couldn't process request - invalid request").
	e.Message = strings.TrimSpace(string(body))
	if len(e.Message) > 200 {
		e.Message = e.Message[:200]
	}
	return e
}
