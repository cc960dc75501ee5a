package signalapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"signal-bot/pkg/signalid"
)

// Group is one entry of GET /v1/groups/<number>.
type Group struct {
	Name       string   `json:"name"`
	ID         string   `json:"id"`          // group.… (the send recipient)
	InternalID string   `json:"internal_id"` // signal-cli's id, as in frames
	Members    []Member `json:"members"`
}

// Member is one member of a group: with ?expand=true (REST API 0.99 and
// later) the REST API gives both the number ("" when hidden) and the uuid;
// the plain form (older releases, which ignore the parameter) gives one
// string, the number, or the uuid when the number is not known.
type Member struct {
	Number string `json:"number"`
	UUID   string `json:"uuid"`
}

// UnmarshalJSON reads either form of a member: {"number","uuid"} or a string.
func (m *Member) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*m = Member{}
		if signalid.IsUUID(s) {
			m.UUID = s
		} else {
			m.Number = s
		}
		return nil
	}
	type plain Member // without this method
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*m = Member(p)
	return nil
}

// Groups lists the account's groups with each member's number and uuid
// (?expand=true). A release before 0.99 ignores the parameter and answers
// the plain form, which Member reads too, so one call serves both; a server
// that refuses the parameter (400) is asked again without it.
func (c *Client) Groups(ctx context.Context) ([]Group, error) {
	path := "/v1/groups/" + url.PathEscape(c.cfg.Number)
	var gs []Group
	err := c.getJSON(ctx, path+"?expand=true", &gs)
	if errors.Is(err, ErrBadRequest) {
		gs = nil
		err = c.getJSON(ctx, path, &gs)
	}
	if err != nil {
		return nil, fmt.Errorf("list groups: %w", err)
	}
	return gs, nil
}
