package signalapi

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"signal-bot/pkg/outbound"
)

// WebhookMaxBody bounds one webhook POST: the websocket read limit, since a
// line carries the same frame.
const WebhookMaxBody = MaxFrame

// Webhook is the other receiver: it takes the REST API's RECEIVE_WEBHOOK_URL
// POSTs, one JSON-RPC line each, and hands each line to the Intake, which
// answers once the frame is queued and on disk. It never waits for the
// frame's handling: the REST API posts from the loop that also carries
// signal-cli's answers, so a reply sent from inside the request would
// deadlock it (docs/wire-format.md §1). Bodies are read within one budget in
// bytes (WebhookConfig.ReadBytes). It also says whether the REST API is
// reachable, the webhook mode's stand-in for a connected websocket. It is
// safe for concurrent use.
type Webhook struct {
	intake    Intake
	token     string // when set, every POST must carry ?token=<token>
	sum       [sha256.Size]byte
	log       *slog.Logger
	reachable atomic.Bool
	budget    readBudget

	busy, denied atomic.Int64         // POSTs refused: over the read budget; without the token
	bad          atomic.Int64         // bodies skipped: no JSON-RPC receive line, too big, unreadable
	busyLog      outbound.LogEvery    // a line a minute
	deniedLog    [2]outbound.LogEvery // a line a minute each: a missing token, a wrong one
	badLog       outbound.LogEvery    // a line a minute
}

// WebhookConfig is the webhook's part of the wiring's settings.
type WebhookConfig struct {
	Token string // when set, every POST must carry ?token=<Token>
	// ReadBytes bounds the bytes of the bodies read and decoded at once
	// (WEBHOOK_READ_BYTES); at least WebhookMaxBody.
	ReadBytes int64
}

// WebhookStats are the POSTs the webhook refused: before reading them, and
// for a body it could not use.
type WebhookStats struct {
	Busy   int64 `json:"busy"`   // answered 503: their bodies did not fit WEBHOOK_READ_BYTES then
	Denied int64 `json:"denied"` // answered 401 or 403: no token, or a wrong one
	Bad    int64 `json:"bad"`    // answered 400 or 413: no JSON-RPC line, over the size, unreadable
}

// NewWebhook returns the receiver handing its frames to in. It counts the
// REST API as reachable until the first check says otherwise, since the
// caller has just talked to it. A nil log discards.
func NewWebhook(in Intake, cfg WebhookConfig, log *slog.Logger) *Webhook {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Webhook{intake: in, token: cfg.Token, sum: sha256.Sum256([]byte(cfg.Token)), log: log}
	h.budget.max = max(cfg.ReadBytes, WebhookMaxBody)
	h.reachable.Store(true)
	return h
}

// Stats reports the POSTs refused so far.
func (h *Webhook) Stats() WebhookStats {
	return WebhookStats{Busy: h.busy.Load(), Denied: h.denied.Load(), Bad: h.bad.Load()}
}

// ServeHTTP takes one POST: 200 once the frame is queued and on disk (or
// taken in memory, see Intake), for a frame the bot chose not to take
// (ErrDeclined, counted by the intake), or for a notification other than
// "receive" (ignored, as the REST API ignores them); 503 when the bot could
// not take the frame (a full or closed queue), or at once, unread, when its
// body does not fit the read budget now, so the REST API logs the loss; 400
// for a body that is no JSON-RPC receive line.
func (h *Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "method not allowed; use POST")
		return
	}
	if !h.authorized(w, r) {
		return
	}
	size := r.ContentLength // the REST API always says it
	if size < 0 {
		size = WebhookMaxBody
	}
	if size > WebhookMaxBody {
		h.skip(r.Context(), w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", WebhookMaxBody))
		return
	}
	if !h.budget.take(size) {
		h.refuseBusy(r.Context(), w, size)
		return
	}
	defer h.budget.give(size)
	body, err := readBody(w, r)
	readAt := time.Now()
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.skip(r.Context(), w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", WebhookMaxBody))
			return
		}
		h.skip(r.Context(), w, http.StatusBadRequest, "read body: "+err.Error())
		return
	}
	h.reachable.Store(true)
	_, err = h.intake.Offer(r.Context(), body, readAt, ViaWebhook)
	switch {
	case err == nil, errors.Is(err, ErrNotReceive), errors.Is(err, ErrDeclined):
		w.WriteHeader(http.StatusOK)
	case errors.Is(err, ErrBadLine):
		h.skip(r.Context(), w, http.StatusBadRequest, err.Error())
	default:
		writeError(w, http.StatusServiceUnavailable, "frame not accepted: "+err.Error())
	}
}

// readBody reads a body of the length it declared into one buffer of that
// size, or one of unknown length up to WebhookMaxBody.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength < 0 {
		return io.ReadAll(http.MaxBytesReader(w, r.Body, WebhookMaxBody))
	}
	body := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

// refuseBusy answers 503 at once to a POST whose body does not fit the read
// budget, and logs it a line a minute with the count.
func (h *Webhook) refuseBusy(ctx context.Context, w http.ResponseWriter, size int64) {
	n := h.busy.Add(1)
	if ok, held := h.busyLog.Allow(time.Now(), time.Minute); ok {
		h.log.WarnContext(ctx, "webhook POST refused unread: bodies being read fill WEBHOOK_READ_BYTES", "bytes", size,
			"read_bytes", h.budget.max, "refused_total", n, "more_since_last_line", held)
	}
	writeError(w, http.StatusServiceUnavailable, "busy: bodies being read fill WEBHOOK_READ_BYTES")
}

// authorized checks ?token= in constant time when a token is configured. The
// REST API sends no header of its own, so the secret travels in the URL it
// is given. A refusal is logged a line a minute with the count: the REST API
// logs each one, the bot's log says why.
func (h *Webhook) authorized(w http.ResponseWriter, r *http.Request) bool {
	if h.token == "" {
		return true
	}
	status, msg, which := 0, "", 0
	got, ok := r.URL.Query()["token"]
	switch {
	case !ok || len(got) != 1:
		status, msg = http.StatusUnauthorized, "missing ?token="
	default:
		if g := sha256.Sum256([]byte(got[0])); subtle.ConstantTimeCompare(g[:], h.sum[:]) != 1 {
			status, msg, which = http.StatusForbidden, "wrong token", 1
		}
	}
	if status == 0 {
		return true
	}
	n := h.denied.Add(1)
	if ok, held := h.deniedLog[which].Allow(time.Now(), time.Minute); ok {
		h.log.WarnContext(r.Context(), "webhook POST refused: "+msg+" (RECEIVE_WEBHOOK_URL must carry ?token=<WEBHOOK_TOKEN>)",
			"status", status, "refused_total", n, "more_since_last_line", held)
	}
	writeError(w, status, msg)
	return false
}

// skip answers a body it cannot use, counts it and logs it a line a minute
// with the count, as the other refusals: the REST API only logs the failure,
// and a local process posting garbage must not flood the log.
func (h *Webhook) skip(ctx context.Context, w http.ResponseWriter, status int, msg string) {
	n := h.bad.Add(1)
	if ok, held := h.badLog.Allow(time.Now(), time.Minute); ok {
		h.log.WarnContext(ctx, "webhook body skipped", "status", status, "err", msg, "skipped_total", n, "more_since_last_line", held)
	}
	writeError(w, status, msg)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// Connected reports whether the REST API was reachable at the last check: a
// webhook POST, or the probe of Watch, whichever came last. It cannot tell
// whether the REST API's RECEIVE_WEBHOOK_URL points here: in a quiet chat no
// POST comes either way.
func (h *Webhook) Connected() bool { return h.reachable.Load() }

// Watch runs probe every interval until ctx ends and records whether it
// succeeded. probe should be a cheap call that does not go through
// signal-cli (GET /v1/health), so that a REST API busy posting still counts
// as reachable.
func (h *Webhook) Watch(ctx context.Context, interval time.Duration, probe func(context.Context) error) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		err := probe(ctx)
		if ctx.Err() != nil {
			return
		}
		switch was := h.reachable.Swap(err == nil); {
		case was && err != nil:
			h.log.WarnContext(ctx, "signal-cli-rest-api unreachable", "err", err)
		case !was && err == nil:
			h.log.InfoContext(ctx, "signal-cli-rest-api reachable again")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
