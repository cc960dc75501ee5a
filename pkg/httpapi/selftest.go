package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/pipeline"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

type selftestBody struct {
	Group string `json:"group"`
	Text  string `json:"text"`
	// Sender picks one of MaxSelftestSenders synthetic identities (0, the
	// default, is SELFTEST_SENDER). One sender's frames take turns, so an
	// open-loop load that stands for many users spreads over several.
	Sender int `json:"sender,omitempty"`
}

// MaxSelftestSenders bounds the synthetic identities of /_selftest.
const MaxSelftestSenders = 64

// selftest injects a synthetic frame from the selftest identity into the
// intake FIFO and answers the frame's timing block once its trace completes.
func (s *Server) selftest(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, http.MethodPost)
		return
	}
	in, ok := readBody(w, r)
	if !ok {
		return
	}
	body, err := parseSelftestBody(in)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	gid, err := commands.GroupRef(body.Group, s.d.Groups.Aliases())
	if err != nil || !s.d.Groups.IsTest(gid) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no test group %q (see TEST_GROUPS)", body.Group))
		return
	}
	if !s.d.Connected() {
		writeError(w, http.StatusServiceUnavailable, "no connection to signal-cli-rest-api")
		return
	}
	ts := s.clock.Next(time.Now()) // never the same twice: (sender, timestamp) is the duplicate filter's key
	number, uuid := s.cfg.SelftestSender, selftestUUID(s.cfg.SelftestSender)
	if body.Sender > 0 { // extra identities hide their number, as many real users do
		number, uuid = "", selftestUUID(fmt.Sprintf("%s#%d", s.cfg.SelftestSender, body.Sender))
	}
	raw := signalapi.TextFrame(s.d.Account, number, uuid, "selftest", gid, body.Text, ts)
	id, err := s.d.Pipeline.Offer(r.Context(), raw, time.Now(), signalapi.ViaSelftest)
	if err != nil {
		status := http.StatusServiceUnavailable
		if !errors.Is(err, pipeline.ErrFull) && !errors.Is(err, pipeline.ErrBytes) && !errors.Is(err, pipeline.ErrClosed) {
			status = http.StatusInternalServerError
		}
		writeError(w, status, "frame not accepted: "+err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.SelftestTimeout)
	defer cancel()
	b, err := s.d.OwnTime.Await(ctx, id)
	if err != nil {
		writeError(w, ctxErrStatus(err), fmt.Sprintf("no complete trace %s: %v", id, err))
		return
	}
	switch b.Outcome {
	case telemetry.OutcomeCooldown, telemetry.OutcomeQuiet:
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"error": "command is cooling down in this group", "trace_id": b.TraceID})
		return
	case telemetry.OutcomeShed:
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"error": "reply shed: over the outbound budget (SEND_BUDGET_CHAT) or sends paused after a 429", "trace_id": b.TraceID})
		return
	case telemetry.OutcomeError, telemetry.OutcomeIgnored, telemetry.OutcomeDropped, telemetry.OutcomeElsewhere:
		writeJSON(w, http.StatusBadGateway, map[string]any{"error": "frame not served: " + b.Outcome, "trace_id": b.TraceID})
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// errNotCommand is the 400 for a selftest text that is not a command.
var errNotCommand = errors.New(`"text" must be a command such as "!pomoc"`)

// readBody reads a body of at most maxBody bytes, answering 413 when it is
// longer and 400 when it cannot be read.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", maxBody))
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, "bad body: "+err.Error())
		return nil, false
	}
	return raw, true
}

// parseSelftestBody decodes a /_selftest body: one JSON object with no
// fields but "group", "text" and "sender", where text is a command and
// sender a valid identity index. The error's text is
// the 400's message. It is pure, so FuzzSelftestBody can fuzz it.
func parseSelftestBody(raw []byte) (selftestBody, error) {
	var body selftestBody
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		return selftestBody{}, fmt.Errorf("bad body: %w", err)
	}
	if _, _, ok := commands.Parse(body.Text); !ok {
		return selftestBody{}, errNotCommand
	}
	if body.Sender < 0 || body.Sender >= MaxSelftestSenders {
		return selftestBody{}, fmt.Errorf(`bad body: "sender" must be in [0, %d)`, MaxSelftestSenders)
	}
	return body, nil
}

// selftestUUID gives the selftest identity a stable UUID-shaped id.
func selftestUUID(sender string) string {
	h := sha256.Sum256([]byte("selftest:" + sender))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
