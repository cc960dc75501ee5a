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
)

// WebhookMaxBody bounds one webhook POST: the websocket read limit, since a
// line carries the same frame.
const WebhookMaxBody = MaxFrame

// Webhook is the other receiver: it takes the REST API's RECEIVE_WEBHOOK_URL
// POSTs, one JSON-RPC line each, and hands each line to the Intake, which
// answers once the frame is queued and on disk. It never waits for the
// frame's handling: the REST API posts from the loop that also carries
// signal-cli's answers, so a reply sent from inside the request would
// deadlock it (docs/wire-format.md §1). It also says whether the REST API
// is reachable, the webhook mode's stand-in for a connected websocket. It is
// safe for concurrent use.
type Webhook struct {
	intake    Intake
	token     string // when set, every POST must carry ?token=<token>
	sum       [sha256.Size]byte
	log       *slog.Logger
	reachable atomic.Bool
}

// NewWebhook returns the receiver handing its frames to in. With token set
// every POST must carry ?token=<token>. It counts the REST API as reachable
// until the first check says otherwise, since the caller has just talked to
// it. A nil log discards.
func NewWebhook(in Intake, token string, log *slog.Logger) *Webhook {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &Webhook{intake: in, token: token, sum: sha256.Sum256([]byte(token)), log: log}
	h.reachable.Store(true)
	return h
}

// ServeHTTP takes one POST: 200 once the frame is queued and on disk, or for
// a notification other than "receive" (ignored, as the REST API ignores
// them); 503 when the queue refuses the frame, so the REST API logs the
// loss; 400 for a body that is no JSON-RPC receive line.
func (h *Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, http.StatusMethodNotAllowed, "method not allowed; use POST")
		return
	}
	if !h.authorized(w, r) {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, WebhookMaxBody))
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
	case err == nil, errors.Is(err, ErrNotReceive):
		w.WriteHeader(http.StatusOK)
	case errors.Is(err, ErrBadLine):
		h.skip(r.Context(), w, http.StatusBadRequest, err.Error())
	default:
		writeError(w, http.StatusServiceUnavailable, "frame not accepted: "+err.Error())
	}
}

// authorized checks ?token= in constant time when a token is configured. The
// REST API sends no header of its own, so the secret travels in the URL it
// is given.
func (h *Webhook) authorized(w http.ResponseWriter, r *http.Request) bool {
	if h.token == "" {
		return true
	}
	got, ok := r.URL.Query()["token"]
	if !ok || len(got) != 1 {
		writeError(w, http.StatusUnauthorized, "missing ?token=")
		return false
	}
	if g := sha256.Sum256([]byte(got[0])); subtle.ConstantTimeCompare(g[:], h.sum[:]) != 1 {
		writeError(w, http.StatusForbidden, "wrong token")
		return false
	}
	return true
}

// skip answers a body it cannot use and logs it: the REST API only logs the
// failure.
func (h *Webhook) skip(ctx context.Context, w http.ResponseWriter, status int, msg string) {
	h.log.WarnContext(ctx, "webhook body skipped", "status", status, "err", msg)
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
