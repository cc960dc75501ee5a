// Package standing follows the bot's Signal account's standing, as the
// answers to its sends tell it: how the sends fare (failures in a row, for
// /healthz), the members its replies do not reach (a changed safety number,
// gone from Signal), what a 429 asks of the operator, and the captcha that
// lifts a rate limit Signal asked proof for. The pause after a 429 and the
// send budget are outbound.Gate's: the Account tells the gate what each
// send's answer said.
package standing

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// Deps are what an Account works with. Gate and Log are required.
type Deps struct {
	Gate         *outbound.Gate // the outbound budget and 429 pause
	Log          *slog.Logger
	HashKey      []byte     // keys the sender hashes the recipient failures are logged by
	Recorder     Recorder   // nil: recipient failures are not counted
	Challenger   Challenger // submits a solved captcha (SubmitCaptcha); nil: none can be
	ChallengeURL string     // the REST API's rate-limit-challenge URL for this account, for the log
}

// Recorder counts single recipients a send did not reach
// (signal_bot_send_recipient_failures_total), by RecipientError.Label;
// *metrics.Metrics is one.
type Recorder interface {
	RecipientFailed(reason string)
}

// Account is the account's standing with Signal. It is safe for
// concurrent use.
type Account struct {
	d          Deps
	sends      sendHealth
	recipients recipientHealth
}

// New returns the standing of an account whose sends have not failed.
func New(d Deps) *Account {
	return &Account{d: d, recipients: recipientHealth{members: map[string]unreachable{}}}
}

// Sent takes the answer to a send to chat that went (the reply to
// command): it ends the run of failures; a 201 whose answer could not be
// read is counted and logged (sent as far as the bot knows: neither retried
// nor apologised for); the recipients it names as failed are noted; and the
// gate is told: the next 429 backs off from the start again, unless Signal
// rate-limited some of the recipients, which pauses every send as a 429
// would.
func (a *Account) Sent(ctx context.Context, command, chat string, res signalapi.SendResult, now time.Time) {
	a.sends.note(ctx, res, nil, now)
	if res.AnswerErr != nil {
		a.d.Log.WarnContext(ctx, "reply sent, but the REST API's answer was unreadable: counted as sent, not retried",
			"command", command, "err", telemetry.RedactErr(res.AnswerErr))
	}
	a.noteRecipients(ctx, chat, res.Failed, now)
	if n := res.RateLimitedRecipients(); n > 0 {
		a.rateLimitedRecipients(ctx, n, now) // not Sent: the back-off goes on doubling
	} else {
		a.d.Gate.Sent()
	}
}

// Failed takes a send to chat that failed (the reply to command, direct
// for a direct chat): counted in the run of failures, as Note does, and
// logged: a 429 pauses every send (rateLimited); a direct chat's send
// refused for its recipient's changed safety number makes that member
// unreachable; any other failure is logged redacted.
func (a *Account) Failed(ctx context.Context, command, chat string, direct bool, err error, now time.Time) {
	a.sends.note(ctx, signalapi.SendResult{}, err, now)
	switch {
	case errors.Is(err, signalapi.ErrRateLimited):
		a.rateLimited(ctx, err)
	case errors.Is(err, signalapi.ErrUntrustedIdentity) && direct:
		a.noteRecipients(ctx, chat, []signalapi.RecipientError{{UUID: chat, Reason: signalapi.ReasonIdentity}}, now)
		a.d.Log.ErrorContext(ctx, "send failed: the recipient's safety number changed (docs/troubleshooting.md#a-members-safety-number-changed: trust it)", "command", command)
	default:
		a.d.Log.ErrorContext(ctx, "send failed", "command", command, "err", telemetry.RedactErr(err))
	}
}

// Note counts a send's outcome in the run of failures and nothing more: the
// apology after a panic, whose answer is read no further.
func (a *Account) Note(ctx context.Context, res signalapi.SendResult, err error, now time.Time) {
	a.sends.note(ctx, res, err, now)
}
