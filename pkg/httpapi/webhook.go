package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"signal-bot/pkg/signalapi"
)

// WebhookMaxBody bounds one webhook POST: the websocket read limit, since a line carries
// the same frame.
const WebhookMaxBody = signalapi.MaxFrame

// WebhookConfig configures the receiver of the REST API's RECEIVE_WEBHOOK_URL POSTs.
type WebhookConfig struct {
	Pipeline Intake
	Token    string // when set, every POST must carry ?token=<Token>
	Log      *slog.Logger
	// Durable, when set, waits until the frames accepted so far are on disk
	// (the journal's Sync); the POST is answered only then, so a 200 means
	// the frame survives a kill -9. nil: answer once the frame is queued.
	Durable func(ctx context.Context) error
}

// Webhook takes the REST API's RECEIVE_WEBHOOK_URL POSTs, one JSON-RPC line each. It hands
// the frame to the intake FIFO and answers once it is queued and journaled on disk (one commit
// of the state file, hurried: WebhookConfig.Durable), never waiting for the frame's handling:
// the REST API posts from the loop that also carries signal-cli's answers, so a reply sent
// from inside the request would deadlock it (docs/wire-format.md §1). It also says whether the
// REST API is reachable, the webhook mode's stand-in for a connected websocket. It is safe
// for concurrent use.
type Webhook struct {
	cfg       WebhookConfig
	token     secret
	reachable atomic.Bool
}

// NewWebhook returns the receiver. It counts the REST API as reachable until the first check
// says otherwise, since the caller has just talked to it.
func NewWebhook(cfg WebhookConfig) *Webhook {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	h := &Webhook{cfg: cfg, token: newSecret(cfg.Token)}
	h.reachable.Store(true)
	return h
}

// rpcLine is what the receiver reads of a JSON-RPC line.
type rpcLine struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// ServeHTTP takes one POST: 200 once the frame is queued and on disk (WebhookConfig.Durable),
// or for a notification other than "receive" (ignored, as the REST API ignores them); 503 when
// the FIFO is full or closed, so the REST API logs the loss; 400 for a body that is no
// JSON-RPC receive line.
func (h *Webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, http.MethodPost)
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
	frame, ok, err := frameOf(body)
	if err != nil {
		h.skip(r.Context(), w, http.StatusBadRequest, err.Error())
		return
	}
	if !ok {
		w.WriteHeader(http.StatusOK)
		return
	}
	if _, err := h.cfg.Pipeline.Offer(frame, readAt, false); err != nil {
		h.cfg.Log.WarnContext(r.Context(), "frame dropped", "err", err, "dropped_total", h.cfg.Pipeline.Stats().Dropped, "via", "webhook")
		writeError(w, http.StatusServiceUnavailable, "frame not accepted: "+err.Error())
		return
	}
	if h.cfg.Durable != nil {
		// The frame is queued and will run either way; the REST API does not
		// retry a failed POST, so a 200 is still the right answer, only the
		// journal's promise is off for this frame.
		if err := h.cfg.Durable(r.Context()); err != nil {
			h.cfg.Log.WarnContext(r.Context(), "frame accepted but not yet on disk: a crash now would lose it", "err", err, "via", "webhook")
		}
	}
	w.WriteHeader(http.StatusOK)
}

// frameOf takes the frame out of a JSON-RPC line: the raw params of a "receive"
// notification, or {"error":…} when signal-cli reported an error, as the websocket carries
// it. ok is false for another method.
func frameOf(body []byte) (frame []byte, ok bool, err error) {
	var l rpcLine
	if err := json.Unmarshal(body, &l); err != nil {
		return nil, false, fmt.Errorf("bad JSON-RPC line: %w", err)
	}
	if l.Method != "receive" {
		return nil, false, nil
	}
	if l.Error != nil && l.Error.Code != 0 {
		b, err := json.Marshal(map[string]string{"error": l.Error.Message})
		return b, err == nil, err
	}
	if len(l.Params) == 0 || string(l.Params) == "null" {
		return nil, false, errors.New("receive line without params")
	}
	return l.Params, true, nil
}

// authorized checks ?token= in constant time when a token is configured. The REST API sends
// no header of its own, so the secret travels in the URL it is given.
func (h *Webhook) authorized(w http.ResponseWriter, r *http.Request) bool {
	if h.cfg.Token == "" {
		return true
	}
	got, ok := r.URL.Query()["token"]
	if !ok || len(got) != 1 {
		writeError(w, http.StatusUnauthorized, "missing ?token=")
		return false
	}
	if !h.token.matches(got[0]) {
		writeError(w, http.StatusForbidden, "wrong token")
		return false
	}
	return true
}

// skip answers a body it cannot use and logs it: the REST API only logs the failure.
func (h *Webhook) skip(ctx context.Context, w http.ResponseWriter, status int, msg string) {
	h.cfg.Log.WarnContext(ctx, "webhook body skipped", "status", status, "err", msg)
	writeError(w, status, msg)
}

// Connected reports whether the REST API was reachable at the last check: a webhook POST,
// or the probe of Watch, whichever came last. It cannot tell whether the REST API's
// RECEIVE_WEBHOOK_URL points here: in a quiet chat no POST comes either way.
func (h *Webhook) Connected() bool { return h.reachable.Load() }

// Watch runs probe every interval until ctx ends and records whether it succeeded. probe
// should be a cheap call that does not go through signal-cli (GET /v1/health), so that a
// REST API busy posting still counts as reachable.
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
			h.cfg.Log.WarnContext(ctx, "signal-cli-rest-api unreachable", "err", err)
		case !was && err == nil:
			h.cfg.Log.InfoContext(ctx, "signal-cli-rest-api reachable again")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Mount returns a handler that serves the webhook at path (checked by
// CheckWebhookPath) and everything else with next.
func (h *Webhook) Mount(path string, next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(path, h)
	mux.Handle("/", next)
	return mux
}

// CheckWebhook refuses webhook mode on a non-loopback address without WEBHOOK_TOKEN: the
// endpoint cannot use the selftest bearer token, since the REST API sends no header.
func CheckWebhook(addr, token string) error {
	if token != "" || CheckAddr(addr, "") == nil {
		return nil
	}
	return fmt.Errorf("HTTP_ADDR %q is not loopback: with RECEIVE_MODE=webhook set WEBHOOK_TOKEN and add ?token=<it> to RECEIVE_WEBHOOK_URL", addr)
}
