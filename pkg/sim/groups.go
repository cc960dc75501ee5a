package sim

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"

	"signal-bot/pkg/signalid"
)

// groupRevision is the revision every simulated group reports.
const groupRevision = 1

// Group is a Signal group the bot account is a member of.
type Group struct {
	Alias      string // short name for tests and control endpoints, e.g. "testbot"
	Name       string // the group's title
	InternalID string // signal-cli's id: base64 of 32 bytes, as in frames' groupInfo.groupId
	// Members are member numbers, or uuids for members whose number the account does not
	// know (a hidden number): the plain form lists them so, the expanded one as
	// {"number":"","uuid":…}. The bot account is added when listed.
	Members []string
}

// TestGroup returns the sandbox's test group: alias "testbot", with a fixed InternalID.
func TestGroup() Group {
	id := sha256.Sum256([]byte("signal-bot sim group testbot"))
	return Group{
		Alias:      "testbot",
		Name:       "testbot",
		InternalID: base64.StdEncoding.EncodeToString(id[:]),
		Members:    []string{DefaultSender, "+48500000003"},
	}
}

// clone returns a copy of g that shares no memory with it.
func (g Group) clone() Group {
	g.Members = slices.Clone(g.Members)
	return g
}

// cloneGroups deep-copies gs.
func cloneGroups(gs []Group) []Group {
	out := make([]Group, len(gs))
	for i, g := range gs {
		out[i] = g.clone()
	}
	return out
}

// ID returns the group's REST API id.
func (g Group) ID() string { return signalid.RESTGroupID(g.InternalID) }

// findGroup returns the configured group whose alias, REST id, internal id or name is ref.
func (s *Sim) findGroup(ref string) (Group, bool) {
	for _, g := range s.groups {
		if ref == g.Alias || ref == g.InternalID || ref == g.ID() || ref == g.Name {
			return g, true
		}
	}
	return Group{}, false
}

// groupLabel is how records name the group of internal id: its alias, or the id when it
// has none.
func (s *Sim) groupLabel(internal string) string {
	if g, ok := s.findGroup(internal); ok && g.Alias != "" {
		return g.Alias
	}
	return internal
}

// resolveGroup is findGroup, plus any well-formed id of a group the bot does not know: a REST
// id or internal id whose raw id is 32 bytes. Such a group has no name.
func (s *Sim) resolveGroup(ref string) (Group, error) {
	if g, ok := s.findGroup(ref); ok {
		return g, nil
	}
	internal, err := signalid.InternalGroupID(ref)
	if err != nil {
		return Group{}, fmt.Errorf("resolve group %q: not a known alias and not a group id", ref)
	}
	return Group{InternalID: internal}, nil
}

// groupEntry is one element of GET /v1/groups/{number}.
type groupEntry struct {
	Name            string           `json:"name"`
	Description     string           `json:"description"`
	ID              string           `json:"id"`
	InternalID      string           `json:"internal_id"`
	Members         []string         `json:"members"`
	Blocked         bool             `json:"blocked"`
	PendingInvites  []string         `json:"pending_invites"`
	PendingRequests []string         `json:"pending_requests"`
	InviteLink      string           `json:"invite_link"`
	Admins          []string         `json:"admins"`
	Permissions     groupPermissions `json:"permissions"`
}

type groupPermissions struct {
	AddMembers   string `json:"add_members"`
	EditGroup    string `json:"edit_group"`
	SendMessages string `json:"send_messages"`
}

// entry renders g as the REST API lists it.
func (s *Sim) entry(g Group) groupEntry {
	members := slices.Clone(g.Members)
	if !slices.Contains(members, s.number) {
		members = append([]string{s.number}, members...)
	}
	return groupEntry{
		Name: g.Name, ID: g.ID(), InternalID: g.InternalID, Members: members,
		PendingInvites: []string{}, PendingRequests: []string{}, Admins: []string{s.number},
		Permissions: groupPermissions{AddMembers: "only-admins", EditGroup: "only-admins", SendMessages: "every-member"},
	}
}

// handleGroups serves GET /v1/groups/{number}.
func (s *Sim) handleGroups(w http.ResponseWriter, r *http.Request) {
	number, _ := pathNumber(r)
	if !s.accountCall(w, r, epGroups, number) {
		return
	}
	expanded, ok := s.wantExpand(w, r)
	if !ok {
		return
	}
	out := make([]any, 0, len(s.groups))
	for _, g := range s.groups {
		out = append(out, s.render(g, expanded))
	}
	writeJSON(w, http.StatusOK, out)
}

// render is g's entry in the plain or the expanded form.
func (s *Sim) render(g Group, expanded bool) any {
	if expanded {
		return expand(s.entry(g))
	}
	return s.entry(g)
}

// handleGroup serves GET /v1/groups/{number}/{id}; id is the REST id ("group.…").
func (s *Sim) handleGroup(w http.ResponseWriter, r *http.Request) {
	number, _ := pathNumber(r)
	if !s.accountCall(w, r, epGroups, number) {
		return
	}
	expanded, ok := s.wantExpand(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	for _, g := range s.groups {
		if g.ID() == id {
			writeJSON(w, http.StatusOK, s.render(g, expanded))
			return
		}
	}
	writeError(w, http.StatusNotFound, "No group with that id found")
}
