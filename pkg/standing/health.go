package standing

import (
	"context"
	"sync"
	"time"

	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// SendFailuresDegraded is how many sends in a row must fail, with no
// success between them, before /healthz says degraded: one failure is a
// recipient or a moment (a 400 for an unregistered number, a timeout), five
// in a row from a bot that sends on every command is the REST API or Signal
// refusing everything. A count, not a time: a quiet chat sends nothing for
// hours, and its one failure is not an outage. The first send that succeeds
// clears it.
const SendFailuresDegraded = 5

// maxSendErrorText bounds the last error kept for /healthz.
const maxSendErrorText = 200

// SendStats are the sends' health, for /healthz and /metrics.
type SendStats struct {
	// FailedInRow counts the sends that failed since the last one that went.
	FailedInRow int `json:"failed_in_row"`
	// FailingSince is the first failure of that run; nil with none.
	FailingSince *time.Time `json:"failing_since,omitempty"`
	// LastError is the last failure, redacted (no numbers, UUIDs, group ids).
	LastError string `json:"last_error,omitempty"`
	// Failing is FailedInRow >= SendFailuresDegraded: /healthz is degraded.
	Failing bool `json:"failing"`
	// AnswerUnreadable counts sends answered 201 with a body that could not
	// be read or parsed: sent as far as the bot knows, not retried, no
	// apology, not a failure.
	AnswerUnreadable int64 `json:"answer_unreadable"`
}

// sendHealth follows the outcome of every send.
type sendHealth struct {
	mu    sync.Mutex
	stats SendStats
	since time.Time
}

// note records a send's outcome. A send cut by its frame's end (shutdown)
// says nothing about the REST API and is left out.
func (h *sendHealth) note(ctx context.Context, res signalapi.SendResult, err error, now time.Time) {
	if err != nil && ctx.Err() != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil {
		h.stats.FailedInRow, h.stats.LastError, h.since = 0, "", time.Time{}
		if res.AnswerErr != nil {
			h.stats.AnswerUnreadable++
		}
		return
	}
	if h.stats.FailedInRow == 0 {
		h.since = now
	}
	h.stats.FailedInRow++
	msg := telemetry.RedactErr(err)
	if len(msg) > maxSendErrorText {
		msg = msg[:maxSendErrorText]
	}
	h.stats.LastError = msg
}

// SendStats reports the sends' health now.
func (a *Account) SendStats() SendStats {
	h := &a.sends
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.stats
	if st.FailedInRow > 0 {
		since := h.since
		st.FailingSince = &since
	}
	st.Failing = st.FailedInRow >= SendFailuresDegraded
	return st
}
