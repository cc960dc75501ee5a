package commands

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// GroupRef turns an alias, a REST id ("group.<b64 of id>") or a signal-cli id
// (base64 of 32 bytes) into the signal-cli id used in frames.
func GroupRef(ref string, aliases map[string]string) (string, error) {
	if id, ok := aliases[ref]; ok {
		return id, nil
	}
	if rest, ok := strings.CutPrefix(ref, "group."); ok {
		inner, err := base64.StdEncoding.DecodeString(rest)
		if err != nil {
			return "", fmt.Errorf("group id %q: %w", ref, err)
		}
		ref = string(inner)
	}
	raw, err := base64.StdEncoding.DecodeString(ref)
	if err != nil || len(raw) != 32 {
		return "", fmt.Errorf("%q is neither a configured group alias nor a group id", ref)
	}
	return ref, nil
}
