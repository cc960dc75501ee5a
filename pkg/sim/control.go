package sim

import (
	"fmt"
	"net/http"

	"signal-bot/pkg/signalid"
)

// maxBurst caps POST /_sim/burst.
const maxBurst = 1_000_000

// controlRoutes registers the control endpoints, beside the REST API's own.
func (s *Sim) controlRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /_sim/messages", s.handleControlMessage)
	m.HandleFunc("POST /_sim/burst", s.handleBurst)
	m.HandleFunc("POST /_sim/frames", s.handleRawFrame)
	m.HandleFunc("POST /_sim/echo", s.handleEcho)
	m.HandleFunc("POST /_sim/disconnect", s.handleDisconnect)
	m.HandleFunc("GET /_sim/sent", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Sent())
	})
	m.HandleFunc("DELETE /_sim/sent", func(w http.ResponseWriter, _ *http.Request) {
		s.ClearSent()
		w.WriteHeader(http.StatusNoContent)
	})
	m.HandleFunc("GET /_sim/stats", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Stats())
	})
	m.HandleFunc("GET /_sim/latency", s.handleGetLatency)
	m.HandleFunc("PUT /_sim/latency", s.handlePutLatency)
	m.HandleFunc("GET /_sim/faults", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Faults())
	})
	m.HandleFunc("PUT /_sim/faults", s.handlePutFaults)
	m.HandleFunc("GET /_sim/limits", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Limits())
	})
	m.HandleFunc("PUT /_sim/limits", s.handlePutLimits)
	m.HandleFunc("GET /_sim/challenges", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Challenges())
	})
	m.HandleFunc("GET /_sim/mode", s.handleGetMode)
	m.HandleFunc("PUT /_sim/mode", s.handlePutMode)
}

// controlMessage is the body of POST /_sim/messages. "from" may be a number or a uuid.
type controlMessage struct {
	From      string  `json:"from"`
	UUID      string  `json:"uuid"`
	Name      string  `json:"name"`
	Group     *string `json:"group"`
	Text      string  `json:"text"`
	Kind      Kind    `json:"kind"`
	Timestamp int64   `json:"timestamp"`
	Target    int64   `json:"target"`
	// TargetAuthor is whose message a reaction is on; "": the bot's.
	TargetAuthor string         `json:"target_author"`
	Mentions     []string       `json:"mentions"`
	Options      []string       `json:"options"`
	Attachments  []InAttachment `json:"attachments"`
	To           string         `json:"to"`
	Device       int            `json:"device"`
}

// message converts c to a Message.
func (c controlMessage) message() Message {
	m := Message{
		From: c.From, UUID: c.UUID, Name: c.Name, Text: c.Text, Kind: c.Kind,
		Timestamp: c.Timestamp, Target: c.Target, Attachments: c.Attachments,
		TargetAuthor: c.TargetAuthor, Mentions: c.Mentions, Options: c.Options, To: c.To, Device: c.Device,
	}
	if signalid.IsUUID(c.From) {
		m.From, m.UUID = "", c.From
	}
	if c.Group != nil {
		m.Group = *c.Group
	}
	return m
}

// handleControlMessage serves POST /_sim/messages: one frame from a user, 202 {"timestamp":…}.
func (s *Sim) handleControlMessage(w http.ResponseWriter, r *http.Request) {
	var c controlMessage
	if !s.bindControl(w, r, &c) {
		return
	}
	ts, err := s.Deliver(c.message())
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusAccepted, map[string]int64{"timestamp": ts})
}

// burstRequest is the body of POST /_sim/burst.
type burstRequest struct {
	N       int     `json:"n"`
	Text    string  `json:"text"`
	Group   *string `json:"group"`
	Senders int     `json:"senders"`
}

// burstResult is the answer of POST /_sim/burst.
type burstResult struct {
	Outcome
	FirstTimestamp int64 `json:"first_timestamp"`
	LastTimestamp  int64 `json:"last_timestamp"`
}

// handleBurst serves POST /_sim/burst: n text frames back to back from round-robin senders
// "+48600000000", "+48600000001", …; the loss knobs apply as to any frame.
func (s *Sim) handleBurst(w http.ResponseWriter, r *http.Request) {
	var b burstRequest
	if !s.bindControl(w, r, &b) {
		return
	}
	if b.N < 1 || b.N > maxBurst {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("n must be between 1 and %d", maxBurst))
		return
	}
	b.Senders = max(b.Senders, 1)
	var res burstResult
	for i := range b.N {
		m := Message{From: fmt.Sprintf("+48600%06d", i%b.Senders), Name: fmt.Sprintf("Sender %d", i%b.Senders), Text: b.Text}
		if b.Group != nil {
			m.Group = *b.Group
		}
		f, ts, err := s.buildFrame(m)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		res.Outcome.add(s.emit(s.number, f))
		if i == 0 {
			res.FirstTimestamp = ts
		}
		res.LastTimestamp = ts
	}
	writeJSON(w, http.StatusAccepted, res)
}

// handleRawFrame serves POST /_sim/frames: the body is offered verbatim as one frame.
func (s *Sim) handleRawFrame(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("read frame: %v", err))
		return
	}
	s.DeliverRaw(body)
	w.WriteHeader(http.StatusAccepted)
}

// handleDisconnect serves POST /_sim/disconnect: every websocket connection is closed.
func (s *Sim) handleDisconnect(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]int{"closed": s.disconnect()})
}

// bindControl decodes a control body strictly: unknown fields are errors, so typos show.
func (s *Sim) bindControl(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := readBody(r)
	if err == nil {
		err = decodeStrict(body, v)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("decode %s body: %v", r.URL.Path, err))
		return false
	}
	return true
}
