package signalid

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// GroupPrefix starts every REST API group id.
const GroupPrefix = "group."

// groupBytes is the length of a group's raw id.
const groupBytes = 32

// RESTGroupID returns the REST API's id of a group, the recipient of a group
// send: "group." + base64 of internalID, signal-cli's id as it appears in
// frames (itself the base64 of the group's 32 raw bytes).
func RESTGroupID(internalID string) string {
	return GroupPrefix + base64.StdEncoding.EncodeToString([]byte(internalID))
}

// InternalGroupID returns signal-cli's id of a group given either of its ids:
// the REST API's ("group.…") or signal-cli's own. Anything that does not come
// down to 32 raw bytes is an error.
func InternalGroupID(id string) (string, error) {
	internal := id
	if rest, ok := strings.CutPrefix(id, GroupPrefix); ok {
		b, err := base64.StdEncoding.DecodeString(rest)
		if err != nil {
			return "", fmt.Errorf("group id %q: %w", id, err)
		}
		internal = string(b)
	}
	raw, err := base64.StdEncoding.DecodeString(internal)
	if err != nil || len(raw) != groupBytes {
		return "", fmt.Errorf("%q is not a group id (base64 of %d bytes, or group. and the base64 of that)", id, groupBytes)
	}
	return internal, nil
}
