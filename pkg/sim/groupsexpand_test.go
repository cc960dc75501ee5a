package sim

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

// GET /v1/groups/{number} lists members as strings (a hidden number by its
// uuid); ?expand=true, from release 0.99, as {"number","uuid"} objects, the
// number "" when hidden. A release before 0.99 ignores the parameter, and a
// value other than true or false is refused.
func TestGroupsExpand(t *testing.T) {
	hidden := UUIDOf("+48600000077")
	g := Group{Alias: "g", Name: "g", InternalID: b64("0123456789abcdef0123456789abcdef"), Members: []string{"+48600000001", hidden}}
	type expandedMembers []struct {
		Number string `json:"number"`
		UUID   string `json:"uuid"`
	}
	tests := []struct {
		name, version, query string
		status               int
		plain                []string        // the members of the plain form
		expanded             expandedMembers // or of the expanded form
	}{
		{"plain", "", "", 200, []string{DefaultNumber, "+48600000001", hidden}, nil},
		{"expand=false", "", "?expand=false", 200, []string{DefaultNumber, "+48600000001", hidden}, nil},
		{"expand=true", "", "?expand=true", 200, nil, expandedMembers{
			{DefaultNumber, UUIDOf(DefaultNumber)}, {"+48600000001", UUIDOf("+48600000001")}, {"", hidden}}},
		{"built from source", "unset", "?expand=true", 200, nil, expandedMembers{
			{DefaultNumber, UUIDOf(DefaultNumber)}, {"+48600000001", UUIDOf("+48600000001")}, {"", hidden}}},
		{"expand=yes", "", "?expand=yes", 400, nil, nil},
		{"0.98 ignores expand", "0.98", "?expand=true", 200, []string{DefaultNumber, "+48600000001", hidden}, nil},
		{"0.98 ignores a bad expand", "0.98", "?expand=yes", 200, []string{DefaultNumber, "+48600000001", hidden}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, Config{Groups: []Group{g}, Version: tt.version})
			for _, path := range []string{"/v1/groups/%2B48500000001" + tt.query, "/v1/groups/%2B48500000001/" + g.ID() + tt.query} {
				res := h.do(http.MethodGet, path, "")
				if res.status != tt.status {
					t.Fatalf("GET %s = %+v; want %d", path, res, tt.status)
				}
				if tt.status != 200 {
					continue
				}
				body := res.body
				if body[0] == '[' {
					body = body[1 : len(body)-1]
				}
				var plain struct{ Members []string }
				var expanded struct{ Members expandedMembers }
				if tt.plain != nil {
					if err := json.Unmarshal([]byte(body), &plain); err != nil || !reflect.DeepEqual(plain.Members, tt.plain) {
						t.Errorf("GET %s: members %v (%v); want %v", path, plain.Members, err, tt.plain)
					}
					continue
				}
				if err := json.Unmarshal([]byte(body), &expanded); err != nil || !reflect.DeepEqual(expanded.Members, tt.expanded) {
					t.Errorf("GET %s: members %+v (%v); want %+v", path, expanded.Members, err, tt.expanded)
				}
			}
		})
	}
}
