package sim

import (
	"net/http"
	"strconv"
	"strings"

	"signal-bot/pkg/signalid"
)

// expandedEntry is one element of GET /v1/groups/{number}?expand=true (REST API
// 0.99 and later, ExpandedGroupEntry): members, pending members and admins as
// objects with the number ("" when hidden) and the uuid.
type expandedEntry struct {
	Name            string           `json:"name"`
	Description     string           `json:"description"`
	ID              string           `json:"id"`
	InternalID      string           `json:"internal_id"`
	Members         []memberEntry    `json:"members"`
	Blocked         bool             `json:"blocked"`
	PendingInvites  []memberEntry    `json:"pending_invites"`
	PendingRequests []memberEntry    `json:"pending_requests"`
	InviteLink      string           `json:"invite_link"`
	Admins          []memberEntry    `json:"admins"`
	Permissions     groupPermissions `json:"permissions"`
}

// memberEntry is one member of the expanded form (GroupMember).
type memberEntry struct {
	Number string `json:"number"`
	UUID   string `json:"uuid"`
}

// memberOf describes the listed member id: a uuid is a member whose number the
// account does not know; a number gets the uuid UUIDOf gives it.
func memberOf(id string) memberEntry {
	if signalid.IsUUID(id) {
		return memberEntry{UUID: id}
	}
	return memberEntry{Number: id, UUID: UUIDOf(id)}
}

// expand renders the plain entry e in the expanded form.
func expand(e groupEntry) expandedEntry {
	members := func(ids []string) []memberEntry {
		out := make([]memberEntry, 0, len(ids))
		for _, id := range ids {
			out = append(out, memberOf(id))
		}
		return out
	}
	return expandedEntry{
		Name: e.Name, Description: e.Description, ID: e.ID, InternalID: e.InternalID,
		Members: members(e.Members), Blocked: e.Blocked,
		PendingInvites: members(e.PendingInvites), PendingRequests: members(e.PendingRequests),
		InviteLink: e.InviteLink, Admins: members(e.Admins), Permissions: e.Permissions,
	}
}

// wantExpand reads the expand query parameter as the REST API does (0.99 and
// later): "true" or "false" (the default), anything else a 400. A release
// before 0.99 never reads it, so the plain form comes back whatever it says.
func (s *Sim) wantExpand(w http.ResponseWriter, r *http.Request) (expand, ok bool) {
	if !expandSupported(s.Mode().Version) {
		return false, true
	}
	switch r.URL.Query().Get("expand") {
	case "", "false":
		return false, true
	case "true":
		return true, true
	}
	writeError(w, http.StatusBadRequest, "Couldn't process request - expand parameter needs to be either 'true' or 'false'")
	return false, false
}

// expandSupported tells whether the release v reads ?expand=: 0.99 and later,
// or a build from source ("unset", or anything that is not a dotted number).
func expandSupported(v string) bool {
	major, minor, found := strings.Cut(v, ".")
	a, errA := strconv.Atoi(major)
	b, errB := strconv.Atoi(strings.SplitN(minor, ".", 2)[0])
	if !found || errA != nil || errB != nil {
		return true
	}
	return a > 0 || b >= 99
}
