package httpapi

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
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
}

// selftest injects a synthetic frame from the selftest identity into the
// intake FIFO and answers the frame's timing block once its trace completes.
func (s *Server) selftest(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, http.MethodPost)
		return
	}
	var body selftestBody
	if !decodeBody(w, r, &body) {
		return
	}
	if _, _, ok := commands.Parse(body.Text); !ok {
		writeError(w, http.StatusBadRequest, `"text" must be a command such as "!pomoc"`)
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
	ts := time.Now().UnixMilli()*1000 + s.seq.Add(1)%1000 // unique per frame: the dedup key
	raw := signalapi.TextFrame(s.d.Account, s.d.Sender, selftestUUID(s.d.Sender), "selftest", gid, body.Text, ts)
	sc, err := s.d.Pipeline.Offer(raw, time.Now(), true)
	if err != nil {
		status := http.StatusServiceUnavailable
		if !errors.Is(err, pipeline.ErrFull) && !errors.Is(err, pipeline.ErrClosed) {
			status = http.StatusInternalServerError
		}
		writeError(w, status, "frame not accepted: "+err.Error())
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.d.Timeout)
	defer cancel()
	b, err := s.d.OwnTime.Await(ctx, sc.TraceID())
	if err != nil {
		writeError(w, ctxErrStatus(err), fmt.Sprintf("no complete trace %s: %v", sc.TraceID(), err))
		return
	}
	switch b.Outcome {
	case telemetry.OutcomeCooldown:
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"error": "command is cooling down in this group", "trace_id": b.TraceID})
		return
	case telemetry.OutcomeError, telemetry.OutcomeIgnored:
		writeJSON(w, http.StatusBadGateway, map[string]any{"error": "frame not served: " + b.Outcome, "trace_id": b.TraceID})
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// selftestUUID gives the selftest identity a stable UUID-shaped id.
func selftestUUID(sender string) string {
	h := sha256.Sum256([]byte("selftest:" + sender))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
