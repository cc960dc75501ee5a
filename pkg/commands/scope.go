package commands

import (
	"fmt"
	"strings"
)

// Scope says in which chats a command answers.
type Scope struct {
	All    bool
	Direct bool
	Groups bool            // every group
	IDs    map[string]bool // these groups, by signal-cli id
}

// Everywhere is the default scope.
var Everywhere = Scope{All: true}

// ParseScope reads "direct|groups|<alias>|group.<id>|<internal id>|*"; aliases
// maps group aliases to signal-cli ids.
func ParseScope(spec string, aliases map[string]string) (Scope, error) {
	var s Scope
	for _, part := range strings.Split(spec, "|") {
		part = strings.TrimSpace(part)
		switch {
		case part == "*" || part == "all":
			s.All = true
		case part == "direct":
			s.Direct = true
		case part == "groups":
			s.Groups = true
		case part == "":
		default:
			id, err := GroupRef(part, aliases)
			if err != nil {
				return Scope{}, fmt.Errorf("scope %q: %w", spec, err)
			}
			if s.IDs == nil {
				s.IDs = make(map[string]bool)
			}
			s.IDs[id] = true
		}
	}
	if !s.All && !s.Direct && !s.Groups && len(s.IDs) == 0 {
		return Scope{}, fmt.Errorf("scope %q names no chat", spec)
	}
	return s, nil
}

// Allows tells whether the scope covers chat.
func (s Scope) Allows(chat Chat) bool {
	switch {
	case s.All:
		return true
	case !chat.IsGroup():
		return s.Direct
	default:
		return s.Groups || s.IDs[chat.GroupID]
	}
}
