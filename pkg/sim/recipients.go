package sim

import "net/http"

// recipientErrors lists the recipients (a send's own, or a group's members) that the
// RecipientErrors knob makes fail.
func recipientErrors(kind recipientKind, targets []string, reasons map[string]string) []recipientError {
	var out []recipientError
	for _, rc := range targets {
		reason, ok := reasons[rc]
		if !ok {
			continue
		}
		if kind == rcptUsername {
			out = append(out, recipientError{Username: rc, Reason: reason})
			continue
		}
		out = append(out, recipientErrorOf(rc, reason))
	}
	return out
}

// writeAllFailed answers a send that no recipient got, as signal-cli's SendMessageResultUtils
// decides and the REST API words it: only changed safety numbers are error -4, a 400 with
// the REST API's own text; only rate limits are error -5, a 429 whose challenge_tokens hold
// one "" per recipient (a plain rate limit has no token); anything else is a 400
// "Failed to send message".
func writeAllFailed(w http.ResponseWriter, account string, failed []recipientError) {
	all := func(reason string) bool {
		for _, f := range failed {
			if f.Reason != reason {
				return false
			}
		}
		return true
	}
	switch {
	case all(identityFailure):
		writeError(w, http.StatusBadRequest, untrustedKeysMessage)
	case all(rateLimitFailure):
		writeRateLimit(w, account, Fault{ChallengeTokens: make([]string, len(failed))})
	default:
		writeError(w, http.StatusBadRequest, defaultFaultMessage)
	}
}

// identityFailure is signal-cli's reason for a recipient whose safety number changed.
const identityFailure = "IDENTITY_FAILURE"

// untrustedKeysMessage is the REST API's text for signal-cli's error -4.
const untrustedKeysMessage = "Unable to complete request due to untrusted recipient keys"

// rateLimitFailure is signal-cli's reason for a recipient refused by the message limit.
const rateLimitFailure = "RATE_LIMIT_FAILURE"

// recipientErrorOf describes the failed recipient rc, a number or a uuid.
func recipientErrorOf(rc, reason string) recipientError {
	if isPhoneNumber(rc) {
		return recipientError{Number: rc, UUID: UUIDOf(rc), Reason: reason}
	}
	return recipientError{UUID: rc, Reason: reason}
}
