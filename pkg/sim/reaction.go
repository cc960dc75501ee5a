package sim

import (
	"net/http"
	"strings"
	"time"

	"signal-bot/pkg/signalid"
)

// Reaction is one reaction the simulator accepted (answered 204).
type Reaction struct {
	Number       string    `json:"number"`
	Recipient    string    `json:"recipient"` // as requested: a number, UUID or group.… id
	Group        string    `json:"group,omitempty"`
	Emoji        string    `json:"reaction"`
	TargetAuthor string    `json:"target_author"` // the reacted-to message's author
	Timestamp    int64     `json:"timestamp"`     // the reacted-to message's timestamp
	Remove       bool      `json:"remove"`        // DELETE: the reaction was taken back
	At           time.Time `json:"at"`            // when the simulator answered
}

// reactionRequest is the body of the reaction endpoints (SendReactionRequest and
// RemoveReactionRequest of the REST API).
type reactionRequest struct {
	Recipient    string `json:"recipient"`
	Reaction     string `json:"reaction"`
	TargetAuthor string `json:"target_author"`
	Timestamp    int64  `json:"timestamp"`
}

// handleReaction serves POST (react) and DELETE (remove) /v1/reactions/{number}, with the
// REST API's checks in its order; a group recipient must be a REST group id, which the
// REST API turns into signal-cli's before the call.
func (s *Sim) handleReaction(w http.ResponseWriter, r *http.Request) {
	var req reactionRequest
	if !s.bindRequest(w, r, &req) {
		return
	}
	number, _ := pathNumber(r)
	if msg := req.problem(r.Method); msg != "" {
		writeError(w, http.StatusBadRequest, msg)
		return
	}
	group := ""
	if strings.HasPrefix(req.Recipient, signalid.GroupPrefix) {
		internal, err := signalid.InternalGroupID(req.Recipient)
		if err != nil {
			writeError(w, http.StatusBadRequest, "Invalid group id")
			return
		}
		group = s.groupLabel(internal)
	}
	if !s.accountCall(w, r, epReactions, number) {
		return
	}
	s.stats.reactions.Add(1)
	s.recordReaction(Reaction{
		Number: number, Recipient: req.Recipient, Group: group, Emoji: req.Reaction, TargetAuthor: req.TargetAuthor,
		Timestamp: req.Timestamp, Remove: r.Method == http.MethodDelete, At: time.Now(),
	})
	w.WriteHeader(http.StatusNoContent)
}

// problem is the REST API's answer to a request missing a field, or "".
func (req reactionRequest) problem(method string) string {
	missing := ""
	switch {
	case req.Recipient == "":
		missing = "recipient"
	case req.Reaction == "" && method == http.MethodPost:
		missing = "reaction"
	case req.TargetAuthor == "":
		missing = "target_author"
	case req.Timestamp == 0:
		missing = "timestamp"
	}
	if missing == "" {
		return ""
	}
	return "Couldn't process request - " + missing + " missing"
}

// recordReaction stores an accepted reaction.
func (s *Sim) recordReaction(x Reaction) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reactions = append(s.reactions, x)
}

// Reactions returns a copy of the reactions accepted since New, oldest first.
func (s *Sim) Reactions() []Reaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Reaction{}, s.reactions...)
}
