package httpapi

import (
	"fmt"
	"net/http"
	"time"

	"signal-bot/pkg/commands"
)

type overrideBody struct {
	Group   string  `json:"group"`
	Command string  `json:"command"`
	TTL     float64 `json:"ttl_s"` // PUT: seconds until the cooldown comes back by itself
}

// maxOverride bounds an override's life.
const maxOverride = time.Hour

// override switches a command's cooldown off in a test group (PUT, with an
// expiry) or puts it back (DELETE).
func (s *Server) override(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPut && r.Method != http.MethodDelete {
		methodNotAllowed(w, "PUT, DELETE")
		return
	}
	var body overrideBody
	if !decodeBody(w, r, &body) {
		return
	}
	gid, err := commands.GroupRef(body.Group, s.d.Groups.Aliases())
	if err != nil || !s.d.Groups.IsTest(gid) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no test group %q (see TEST_GROUPS)", body.Group))
		return
	}
	name, _, ok := commands.Parse("!" + body.Command)
	cmd, found := s.d.Registry.Resolve(name)
	if !ok || !found {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("no command %q", body.Command))
		return
	}
	ov := s.d.Bot.Overrides()
	if r.Method == http.MethodDelete {
		ov.Clear(gid, cmd.Name)
		writeJSON(w, http.StatusOK, map[string]any{"command": cmd.Name, "active": false})
		return
	}
	ttl := time.Duration(body.TTL * float64(time.Second))
	if ttl <= 0 || ttl > maxOverride {
		writeError(w, http.StatusBadRequest, fmt.Sprintf(`"ttl_s" must be in (0, %.0f]`, maxOverride.Seconds()))
		return
	}
	until := time.Now().Add(ttl)
	ov.Set(gid, cmd.Name, until)
	s.d.Log.InfoContext(r.Context(), "cooldown override set", "command", cmd.Name, "group", s.d.Groups.Alias(gid), "until", until.Format(time.RFC3339))
	writeJSON(w, http.StatusOK, map[string]any{"command": cmd.Name, "active": true, "until": until})
}
