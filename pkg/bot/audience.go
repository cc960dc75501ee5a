package bot

import (
	"fmt"
	"sync"

	"signal-bot/pkg/signalapi"
)

// Audience decides where the bot answers at all (ANSWER_IN): in which groups, and in
// which direct chats. A frame from elsewhere gets nothing, not even a hint, so a stranger
// cannot make the bot's account message anyone. It is safe for concurrent use.
type Audience struct {
	everyone bool
	direct   bool            // any direct chat
	members  bool            // direct chats with members of the configured groups
	groups   map[string]bool // signal-cli group ids

	mu        sync.RWMutex
	memberIDs map[string]bool // numbers and uuids of the configured groups' members
}

// NewAudience reads ANSWER_IN: "*" (everyone), "groups" (every configured group),
// "members" (direct chats with their members), "direct" (any direct chat) or a group alias.
func NewAudience(spec []string, groups Groups) (*Audience, error) {
	a := &Audience{groups: map[string]bool{}, memberIDs: map[string]bool{}}
	for _, s := range spec {
		switch s {
		case "*":
			a.everyone = true
		case "groups":
			for _, id := range groups.byAlias {
				a.groups[id] = true
			}
		case "members":
			a.members = true
		case "direct":
			a.direct = true
		default:
			id, ok := groups.byAlias[s]
			if !ok {
				return nil, fmt.Errorf("configuration: ANSWER_IN: %q is not *, groups, members, direct or a GROUPS alias", s)
			}
			a.groups[id] = true
		}
	}
	return a, nil
}

// NeedsMembers reports whether the audience depends on the groups' member lists.
func (a *Audience) NeedsMembers() bool { return a.members && !a.everyone && !a.direct }

// SetMembers replaces the member list with the members of the configured groups in gs.
func (a *Audience) SetMembers(gs []signalapi.Group, configured Groups) {
	ids := map[string]bool{}
	for _, g := range gs {
		if _, ok := configured.byID[g.InternalID]; !ok {
			continue
		}
		for _, m := range g.Members { // a hidden number is "": only the uuid is known
			for _, id := range []string{m.Number, m.UUID} {
				if id != "" {
					ids[id] = true
				}
			}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.memberIDs = ids
}

// Members is the number of known members (numbers and uuids).
func (a *Audience) Members() int {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.memberIDs)
}

// Allows reports whether the bot answers in's chat. The owner (in.FromOwner,
// in Note-to-Self) counts as a member of the configured groups.
func (a *Audience) Allows(in signalapi.Incoming) bool {
	switch {
	case a.everyone:
		return true
	case in.GroupID != "":
		return a.groups[in.GroupID]
	case a.direct:
		return true
	case !a.members:
		return false
	case in.FromOwner:
		return true
	}
	a.mu.RLock()
	defer a.mu.RUnlock()
	return (in.SenderNumber != "" && a.memberIDs[in.SenderNumber]) || (in.SenderUUID != "" && a.memberIDs[in.SenderUUID])
}
