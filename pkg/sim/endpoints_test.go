package sim

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"signal-bot/pkg/signalid"
)

func TestEndpoints(t *testing.T) {
	const jsonCT, plainCT = "application/json; charset=utf-8", "text/plain; charset=utf-8"
	g := TestGroup()
	h := start(t, Config{})
	react := `{"recipient":"+48500000002","reaction":"👍","target_author":"+48500000002","timestamp":1765000002500}`
	tests := []struct {
		name   string
		method string
		path   string
		body   string
		want   response
	}{
		{"about", "GET", "/v1/about", "", response{200, jsonCT, `{"versions":["v1","v2"],"build":2,"mode":"json-rpc","version":"0.100","capabilities":{"v2/send":["quotes","mentions"]}}`}},
		{"health", "GET", "/v1/health", "", response{204, "", ""}},
		{"group by id", "GET", "/v1/groups/%2B48500000001/" + url.PathEscape(g.ID()), "", response{200, jsonCT, mustJSON(t, h.sim.entry(g))}},
		{"unknown group id", "GET", "/v1/groups/+48500000001/" + url.PathEscape(signalid.RESTGroupID(b64("nope"))), "", response{404, jsonCT, `{"error":"No group with that id found"}`}},
		{"groups of another account", "GET", "/v1/groups/+48999", "", response{400, jsonCT, `{"error":"Specified account does not exist"}`}},
		{"typing start", "PUT", "/v1/typing-indicator/+48500000001", `{"recipient":"+48500000002"}`, response{204, "", ""}},
		{"typing stop in group", "DELETE", "/v1/typing-indicator/%2B48500000001", `{"recipient":"` + g.ID() + `"}`, response{204, "", ""}},
		{"typing bad json", "PUT", "/v1/typing-indicator/+48500000001", `{`, response{400, plainCT, `{"error":"Couldn't process request - invalid request"}`}},
		{"reaction", "POST", "/v1/reactions/+48500000001", react, response{204, "", ""}},
		{"reaction removed", "DELETE", "/v1/reactions/+48500000001", `{"recipient":"+48500000002","target_author":"+48500000002","timestamp":1}`, response{204, "", ""}},
		{"reaction without emoji", "POST", "/v1/reactions/+48500000001", `{"recipient":"+48500000002","target_author":"+48500000002","timestamp":1}`, response{400, jsonCT, `{"error":"Couldn't process request - reaction missing"}`}},
		{"reaction without recipient", "POST", "/v1/reactions/+48500000001", `{}`, response{400, jsonCT, `{"error":"Couldn't process request - recipient missing"}`}},
		{"reaction without timestamp", "POST", "/v1/reactions/+48500000001", `{"recipient":"+48500000002","reaction":"👍","target_author":"+48500000002"}`, response{400, jsonCT, `{"error":"Couldn't process request - timestamp missing"}`}},
		{"reaction in a group", "POST", "/v1/reactions/+48500000001", `{"recipient":"` + g.ID() + `","reaction":"⏳","target_author":"+48500000002","timestamp":5}`, response{204, "", ""}},
		{"reaction in a bad group", "POST", "/v1/reactions/+48500000001", `{"recipient":"group.!!","reaction":"⏳","target_author":"+48500000002","timestamp":5}`, response{400, jsonCT, `{"error":"Invalid group id"}`}},
		{"receipt", "POST", "/v1/receipts/+48500000001", `{"recipient":"+48500000002","receipt_type":"read","timestamp":1}`, response{204, "", ""}},
		{"receipt bad type", "POST", "/v1/receipts/+48500000001", `{"recipient":"+48500000002","receipt_type":"seen","timestamp":1}`, response{400, jsonCT, `{"error":"Couldn't process request - receipt type must be read or viewed"}`}},
		{"receipt other account", "POST", "/v1/receipts/+48999", `{"recipient":"+48500000002","receipt_type":"viewed","timestamp":1}`, response{400, jsonCT, `{"error":"Specified account does not exist"}`}},
		{"unknown attachment", "GET", "/v1/attachments/nope.jpg", "", response{404, jsonCT, `{"error":"No attachment with that name found"}`}},
		{"unknown route", "GET", "/v1/nope", "", response{404, "text/plain", "404 page not found"}},
		{"wrong method", "GET", "/v2/send", "", response{404, "text/plain", "404 page not found"}},
		{"head", "HEAD", "/v1/about", "", response{404, "text/plain", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := h.do(tt.method, tt.path, tt.body); got != tt.want {
				t.Errorf("%s %s = %+v; want %+v", tt.method, tt.path, got, tt.want)
			}
		})
	}
	if st := h.sim.Stats(); st.Typing != 2 || st.Reactions != 3 || st.Receipts != 1 {
		t.Errorf("typing %d, reactions %d, receipts %d; want 2, 3, 1", st.Typing, st.Reactions, st.Receipts)
	}
	rs := h.sim.Reactions()
	if len(rs) != 3 || rs[0].Emoji != "👍" || rs[0].Timestamp != 1765000002500 || rs[0].TargetAuthor != "+48500000002" || rs[0].Remove ||
		!rs[1].Remove || rs[2].Group != g.Alias || rs[2].Emoji != "⏳" || rs[2].Recipient != g.ID() {
		t.Errorf("Reactions() = %+v; want the 👍, its removal, the ⏳ in the group", rs)
	}
	ty := h.sim.Typings()
	if len(ty) != 2 || !ty[0].Started || ty[0].Recipient != "+48500000002" || ty[1].Started || ty[1].Recipient != g.ID() ||
		ty[1].At.Before(ty[0].At) {
		t.Errorf("Typings() = %+v; want the start to +48500000002, then the stop in the group", ty)
	}
}

func TestGroupsList(t *testing.T) {
	extra := Group{Alias: "other", Name: "Other", InternalID: b64("0123456789abcdef0123456789abcdef")}
	h := start(t, Config{Groups: []Group{TestGroup(), extra}})
	res := h.do(http.MethodGet, "/v1/groups/%2B48500000001", "")
	var got []map[string]any
	if err := json.Unmarshal([]byte(res.body), &got); err != nil || res.status != 200 || len(got) != 2 {
		t.Fatalf("GET groups = %+v (%v); want 200 and 2 groups", res, err)
	}
	for i, g := range []Group{TestGroup(), extra} {
		wantKeys(t, got[i], "name", "description", "id", "internal_id", "members", "blocked",
			"pending_invites", "pending_requests", "invite_link", "admins", "permissions")
		wantValue(t, got[i], "id", signalid.RESTGroupID(g.InternalID))
		wantValue(t, got[i], "internal_id", g.InternalID)
		wantValue(t, got[i], "name", g.Name)
	}
	// The REST id is "group." + base64 of the internal id, and decodes twice to 32 bytes.
	if kind, msg := recipientType(TestGroup().ID()); kind != rcptGroup || msg != "" {
		t.Errorf("recipientType(TestGroup().ID()) = %v, %q; want a group", kind, msg)
	}
}

// mustJSON renders v as the REST API would.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return string(b)
}
