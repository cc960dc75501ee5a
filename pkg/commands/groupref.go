package commands

import (
	"fmt"

	"signal-bot/pkg/signalid"
)

// GroupRef turns an alias, a REST id ("group.<b64 of id>") or a signal-cli id
// (base64 of 32 bytes) into the signal-cli id used in frames.
func GroupRef(ref string, aliases map[string]string) (string, error) {
	if id, ok := aliases[ref]; ok {
		return id, nil
	}
	id, err := signalid.InternalGroupID(ref)
	if err != nil {
		return "", fmt.Errorf("%q is neither a configured group alias nor a group id", ref)
	}
	return id, nil
}
