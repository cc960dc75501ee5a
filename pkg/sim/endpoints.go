package sim

import (
	"net/http"
	"slices"
	"time"
)

// msgNoAccount is signal-cli's error (-32602) for a request naming an account it does not
// have, which the REST API passes on as a 400.
const msgNoAccount = "Specified account does not exist"

// about is the body of GET /v1/about in json-rpc mode.
type about struct {
	Versions     []string            `json:"versions"`
	Build        int                 `json:"build"`
	Mode         string              `json:"mode"`
	Version      string              `json:"version"`
	Capabilities map[string][]string `json:"capabilities"`
}

// handleAbout serves GET /v1/about.
func (s *Sim) handleAbout(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, about{
		Versions: []string{"v1", "v2"}, Build: 2, Mode: "json-rpc", Version: s.Mode().Version,
		Capabilities: map[string][]string{"v2/send": {"quotes", "mentions"}},
	})
}

// handleHealth serves GET /v1/health: always 204, without asking signal-cli.
func (s *Sim) handleHealth(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusNoContent)
}

// accountCall runs the common part of an endpoint that calls signal-cli for an account: the
// account must exist, then the endpoint's fault and latency apply. It reports whether the
// handler should go on.
func (s *Sim) accountCall(w http.ResponseWriter, r *http.Request, ep endpoint, number string) bool {
	if number != s.number {
		writeError(w, http.StatusBadRequest, msgNoAccount)
		return false
	}
	return s.callSignalCLI(w, r, ep, number, s.latencyOf(ep))
}

// callSignalCLI stands for the REST API's call to signal-cli: it takes cost, unless a fault
// hits. A 400 or 429 fault answers after the cost (signal-cli tried), a 500 or a hang at once.
// It reports whether the handler should go on and answer success.
func (s *Sim) callSignalCLI(w http.ResponseWriter, r *http.Request, ep endpoint, number string, cost time.Duration) bool {
	_, ok := s.signalCLI(w, r, ep, number, cost)
	return ok
}

// signalCLI is callSignalCLI, handing a FaultGarbage back to the caller instead of writing it:
// the call succeeds, and the caller garbles its answer.
func (s *Sim) signalCLI(w http.ResponseWriter, r *http.Request, ep endpoint, number string, cost time.Duration) (garbage Fault, ok bool) {
	f, faulty := s.pickFault(ep)
	if faulty && f.Kind == FaultGarbage {
		garbage, faulty = f, false
	}
	if faulty && (f.Kind == FaultServerError || f.Kind == FaultHang) {
		s.writeFault(w, r, ep, number, f)
		return garbage, false
	}
	if s.sleep(r.Context(), cost) != nil {
		return garbage, false // the client is gone, or the Sim closed and sleep aborted the response
	}
	if !s.awaitLoop(r.Context()) {
		return garbage, false // signal-cli's answer never passed the read loop (webhook mode, docs/wire-format.md §1)
	}
	if faulty {
		s.writeFault(w, r, ep, number, f)
		return garbage, false
	}
	return garbage, true
}

// typingRequest is the body of the typing-indicator endpoints.
type typingRequest struct {
	Recipient string `json:"recipient"`
}

// handleTyping serves PUT (start) and DELETE (stop) /v1/typing-indicator/{number}.
func (s *Sim) handleTyping(w http.ResponseWriter, r *http.Request) {
	var req typingRequest
	if !s.bindRequest(w, r, &req) {
		return
	}
	number, ok := pathNumber(r)
	if !ok {
		writeError(w, http.StatusBadRequest, "Couldn't process request - number missing")
		return
	}
	if !s.accountCall(w, r, epTyping, number) {
		return
	}
	s.stats.typing.Add(1)
	s.recordTyping(Typing{Number: number, Recipient: req.Recipient, Started: r.Method == http.MethodPut, At: time.Now()})
	w.WriteHeader(http.StatusNoContent)
}

// receiptRequest is the body of POST /v1/receipts/{number}.
type receiptRequest struct {
	Recipient   string `json:"recipient"`
	ReceiptType string `json:"receipt_type"`
	Timestamp   int64  `json:"timestamp"`
}

// handleReceipt serves POST /v1/receipts/{number}.
func (s *Sim) handleReceipt(w http.ResponseWriter, r *http.Request) {
	var req receiptRequest
	if !s.bindRequest(w, r, &req) {
		return
	}
	number, ok := pathNumber(r)
	msg := ""
	switch {
	case !ok:
		msg = "Couldn't process request - number missing"
	case req.Recipient == "":
		msg = "Couldn't process request - recipient missing"
	case !slices.Contains([]string{"read", "viewed"}, req.ReceiptType):
		msg = "Couldn't process request - receipt type must be read or viewed"
	case req.Timestamp == 0:
		msg = "Couldn't process request - timestamp missing"
	}
	if msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	if !s.accountCall(w, r, epReceipts, number) {
		return
	}
	s.stats.receipts.Add(1)
	w.WriteHeader(http.StatusNoContent)
}

// bindRequest reads and binds a JSON body like gin's BindJSON, answering the failure itself.
func (s *Sim) bindRequest(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := readBody(r)
	if err == nil {
		err = bindJSON(body, v)
	}
	if err != nil {
		s.log.DebugContext(r.Context(), "bind request body", "path", r.URL.Path, "err", err)
		writeBindError(w)
		return false
	}
	return true
}
