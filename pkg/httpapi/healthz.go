package httpapi

import (
	"net/http"
	"time"

	"signal-bot/pkg/store"
)

// Health is GET /healthz.
type Health struct {
	Status        string `json:"status"` // ok, or degraded while the websocket is down
	Connected     bool   `json:"connected"`
	QueueDepth    int    `json:"queue_depth"`
	QueueCapacity int    `json:"queue_capacity"`
	Active        int    `json:"active"`
	Limit         int    `json:"limit"`
	Accepted      int64  `json:"accepted"`
	Dropped       int64  `json:"dropped"`
	TracesOpen    int    `json:"traces_open"`
	TracesEvicted uint64 `json:"traces_evicted"`
	Overrides     any    `json:"overrides"`
	// State is the state file's writer: uses not yet on disk, commits, failures.
	State *store.WriterStats `json:"state,omitempty"`
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET")
		return
	}
	ps := s.d.Pipeline.Stats()
	ts := s.d.OwnTime.Stats()
	h := Health{
		Status: "ok", Connected: s.d.Connected(),
		QueueDepth: ps.Depth, QueueCapacity: ps.Capacity, Active: ps.Active, Limit: ps.Limit,
		Accepted: ps.Accepted, Dropped: ps.Dropped,
		TracesOpen: ts.Open, TracesEvicted: ts.Evicted,
		Overrides: s.d.Bot.Overrides().List(time.Now()),
	}
	if s.d.State != nil {
		st := s.d.State()
		h.State = &st
	}
	status := http.StatusOK
	if !h.Connected {
		h.Status, status = "degraded", http.StatusServiceUnavailable
	}
	writeJSON(w, status, h)
}
