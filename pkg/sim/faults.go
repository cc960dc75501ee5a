package sim

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// FaultKind names a failure the simulator can inject.
type FaultKind string

// The failures the real server produces after it has called signal-cli (docs/wire-format.md §2).
const (
	FaultNone        FaultKind = ""     // no fault
	FaultBadRequest  FaultKind = "400"  // 400 {"error":Message}, as for most signal-cli errors
	FaultRateLimit   FaultKind = "429"  // 429 with challenge_tokens, as for signal-cli error -5
	FaultServerError FaultKind = "500"  // 500 with an empty body, as when the daemon link is down
	FaultHang        FaultKind = "hang" // no answer until the request's context ends, as a hung daemon
	// FaultGarbage delivers the message and records it, then answers 201 with a body that is
	// no JSON (Message, default a cut-off {"timestamp":…), as a proxy that mangles answers
	// would. Only /v2/send; the other endpoints answer as without a fault.
	FaultGarbage FaultKind = "garbage"
)

// Default texts of injected faults.
const (
	defaultFaultMessage = "Failed to send message"
	rateLimitMessage    = "Failed to send message due to rate limiting"
	rateLimitAdvice     = ". Use the attached challenge tokens to lift the rate limit restrictions via the '/v1/accounts/{number}/rate-limit-challenge' endpoint."
	defaultToken        = "tok-123"
	garbageAnswer       = `{"timestamp":"17`
)

// Fault is one endpoint's injected failure. With Next > 0 it hits the next Next requests and
// is then spent; otherwise with Probability > 0 it hits each request with that probability
// (drawn from the Sim's seeded source); otherwise it hits every request.
type Fault struct {
	Kind            FaultKind `json:"kind,omitempty"`
	Message         string    `json:"message,omitempty"`          // 400 text; default "Failed to send message"
	ChallengeTokens []string  `json:"challenge_tokens,omitempty"` // 429 tokens; default ["tok-123"]
	Next            int       `json:"next,omitempty"`
	Probability     float64   `json:"probability,omitempty"`

	// RetryAfter adds a Retry-After header (whole seconds) to a 429. The released REST API
	// sends none (it drops signal-cli's retryAfterSeconds); this knob lets a test ask for one.
	RetryAfter jsonDuration `json:"retry_after,omitempty"`
}

// Faults holds the injected failures per endpoint.
type Faults struct {
	Send      Fault `json:"send"`
	Typing    Fault `json:"typing"`
	Reactions Fault `json:"reactions"`
	Receipts  Fault `json:"receipts"`
	Groups    Fault `json:"groups"`
	// RecipientErrors makes single recipients of a /v2/send fail, keyed by number (or uuid,
	// or username), with signal-cli's reason: "RATE_LIMIT_FAILURE", "IDENTITY_FAILURE",
	// "UNREGISTERED_FAILURE", "NETWORK_FAILURE", "INVALID_PRE_KEY_FAILURE". A group's members
	// fail alike. The array 201 shape lists them; the object shape hides them, as the
	// released server does. When every recipient fails, the send fails as signal-cli's
	// would (writeAllFailed).
	RecipientErrors map[string]string `json:"recipient_errors,omitempty"`
}

// endpoint names the endpoints that take faults.
type endpoint int

const (
	epSend endpoint = iota
	epTyping
	epReactions
	epReceipts
	epGroups
)

// clone returns a deep copy, so a caller's later changes cannot reach the Sim.
func (f Faults) clone() Faults {
	f.RecipientErrors = maps.Clone(f.RecipientErrors)
	for _, p := range []*Fault{&f.Send, &f.Typing, &f.Reactions, &f.Receipts, &f.Groups} {
		p.ChallengeTokens = slices.Clone(p.ChallengeTokens)
	}
	return f
}

// rule returns the fault slot of ep.
func (f *Faults) rule(ep endpoint) *Fault {
	switch ep {
	case epTyping:
		return &f.Typing
	case epReactions:
		return &f.Reactions
	case epReceipts:
		return &f.Receipts
	case epGroups:
		return &f.Groups
	}
	return &f.Send
}

// Faults returns a copy of the current faults, with counters as they stand.
func (s *Sim) Faults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.clone()
}

// pickFault decides whether this request to ep fails, and how. It counts injected faults.
func (s *Sim) pickFault(ep endpoint) (Fault, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.faults.rule(ep)
	if r.Kind == FaultNone {
		return Fault{}, false
	}
	hit := *r
	switch {
	case r.Next > 0:
		r.Next--
		if r.Next == 0 {
			*r = Fault{}
		}
	case r.Probability > 0:
		if s.rng.Float64() >= r.Probability {
			return Fault{}, false
		}
	}
	s.stats.faults.Add(1)
	return hit, true
}

// rateLimitBody is the real server's 429 body (SendMessageError).
type rateLimitBody struct {
	Error           string   `json:"error"`
	ChallengeTokens []string `json:"challenge_tokens"`
	Account         string   `json:"account"`
}

// writeFault answers with f. Only /v2/send maps signal-cli's rate limit to 429; the other
// endpoints pass it on as a 400. A hang returns when the request ends or the Sim closes.
func (s *Sim) writeFault(w http.ResponseWriter, r *http.Request, ep endpoint, account string, f Fault) {
	switch f.Kind {
	case FaultHang:
		select {
		case <-r.Context().Done():
		case <-s.done:
			panic(http.ErrAbortHandler) // a broken connection, not an empty 200
		}
	case FaultServerError:
		w.WriteHeader(http.StatusInternalServerError)
	case FaultRateLimit:
		if ep != epSend {
			writeError(w, http.StatusBadRequest, cmp.Or(f.Message, rateLimitMessage))
			return
		}
		writeRateLimit(w, account, f)
	default:
		msg := f.Message
		if msg == "" {
			msg = defaultFaultMessage
		}
		writeError(w, http.StatusBadRequest, msg)
	}
}

// writeRateLimit answers the real server's 429 (signal-cli error -5) with f's message,
// tokens and Retry-After.
func writeRateLimit(w http.ResponseWriter, account string, f Fault) {
	tokens := f.ChallengeTokens
	if len(tokens) == 0 {
		tokens = []string{defaultToken}
	}
	if f.RetryAfter > 0 {
		secs := (time.Duration(f.RetryAfter) + time.Second - 1) / time.Second
		w.Header().Set("Retry-After", strconv.FormatInt(int64(secs), 10))
	}
	writeJSON(w, http.StatusTooManyRequests, rateLimitBody{
		Error: cmp.Or(f.Message, rateLimitMessage) + rateLimitAdvice, ChallengeTokens: tokens, Account: account,
	})
}
