package signalapi

// The reasons of a failed recipient in a 201's errors.recipients: signal-cli's
// SendMessageResult type (JsonSendMessageResult.Type), which the REST API
// passes on as it is (client.go, send: every result whose type is not SUCCESS).
const (
	ReasonNetwork       = "NETWORK_FAILURE"
	ReasonUnregistered  = "UNREGISTERED_FAILURE"
	ReasonIdentity      = "IDENTITY_FAILURE"
	ReasonRateLimit     = "RATE_LIMIT_FAILURE" // a plain rate limit or one that asks for proof: the 201 drops the token
	ReasonInvalidPreKey = "INVALID_PRE_KEY_FAILURE"
)

// recipientLabels are the reasons with their metric label, the fixed label
// set of signal_bot_send_recipient_failures_total; any other reason is
// "other".
var recipientLabels = [...]struct{ reason, label string }{
	{ReasonRateLimit, "rate_limit"}, {ReasonIdentity, "identity"}, {ReasonUnregistered, "unregistered"},
	{ReasonNetwork, "network"}, {ReasonInvalidPreKey, "invalid_pre_key"}, {"", "other"},
}

// Label is the reason's metric label: lower case, "other" for a reason
// signal-cli did not have when this was written.
func (r RecipientError) Label() string {
	for _, l := range recipientLabels[:len(recipientLabels)-1] {
		if l.reason == r.Reason {
			return l.label
		}
	}
	return "other"
}

// Key is the failed recipient's identity: the uuid, else the number, else
// the username. It is for hashing, never for a log.
func (r RecipientError) Key() string {
	switch {
	case r.UUID != "":
		return r.UUID
	case r.Number != "":
		return r.Number
	}
	return r.Username
}

// RecipientFailureLabels lists every label of RecipientError.Label.
func RecipientFailureLabels() []string {
	out := make([]string, len(recipientLabels))
	for i, l := range recipientLabels {
		out[i] = l.label
	}
	return out
}

// RateLimitedRecipients counts the failed recipients of res that a rate
// limit refused.
func (res SendResult) RateLimitedRecipients() int {
	n := 0
	for _, f := range res.Failed {
		if f.Reason == ReasonRateLimit {
			n++
		}
	}
	return n
}
