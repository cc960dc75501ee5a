package sim

import (
	"net/http"
	"testing"
)

// FuzzParseSend checks that no /v2/send body panics the parser (the one body the real
// server panics on is answered as its recovered 500), and that what passes is well formed.
func FuzzParseSend(f *testing.F) {
	g := TestGroup()
	for _, seed := range []string{
		``, `{`, `null`, `[]`, `{"number":"+1","recipients":["+2"],"message":"hi"}`,
		`{"number":"+1","recipient":"alice.42","message":"hi"}`,
		`{"number":"+1","recipients":["` + g.ID() + `"],"message":"hi"}`,
		`{"number":"+1","recipients":["group.abc","group.!!!!!!!!!!!!"],"message":"x"}`,
		`{"number":"+1","recipients":["+2"],"base64_attachments":["data:image/png;filename=a.png;base64,iVBORw0KGgo="]}`,
		`{"number":"+1","recipients":["+2"],"base64_attachments":["base64,data:"]}`,
		`{"number":"+1","recipients":["+2"],"sticker":"ab","view_once":true}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		plan, e := parseSend(body)
		if (plan == nil) == (e == nil) {
			t.Fatalf("parseSend(%q) = %v, %v; want exactly one", body, plan, e)
		}
		if e != nil {
			if e.status != http.StatusBadRequest && e.status != http.StatusInternalServerError {
				t.Fatalf("parseSend(%q) status %d; want 400 or 500", body, e.status)
			}
			return
		}
		if plan.req.Number == "" || len(plan.recipients) == 0 {
			t.Fatalf("parseSend(%q) passed without number or recipients", body)
		}
		if plan.kind == rcptGroup && len(plan.groupID) == 0 {
			t.Fatalf("parseSend(%q) is a group send without a group id", body)
		}
	})
}
