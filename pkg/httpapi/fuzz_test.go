package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"signal-bot/pkg/commands"
)

// FuzzSelftestBody feeds arbitrary bytes to the /_selftest body parser: it
// never panics, accepts only a command, and what it accepts survives a
// round trip through JSON; the group reference resolves or fails cleanly.
func FuzzSelftestBody(f *testing.F) {
	for _, s := range []string{
		`{"group":"testbot","text":"!pomoc"}`,
		`{"group":"group.UG1waStFZlBXbXN4aW9tTGU5TngyWEY5SE9FNDgzcDZpS2lGajY1aU13ST0=","text":"!kot rudy"}`,
		`{"group":"Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=","text":"!ja"}`,
		`{"group":"testbot","text":"hello"}`,
		`{"group":"testbot","text":"!pomoc","x":1}`,
		`{"text":"!\u017c\u00f3\u0142w"} trailing`,
		`{"group":1}`, `[]`, `null`, ``, `{`, "{\"text\":\"!\xff\"}",
	} {
		f.Add([]byte(s))
	}
	aliases := map[string]string{"testbot": "Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI="}
	f.Fuzz(func(t *testing.T, raw []byte) {
		body, err := parseSelftestBody(raw)
		if err != nil {
			if body != (selftestBody{}) {
				t.Fatalf("parseSelftestBody(%q) failed (%v) but returned %+v", raw, err, body)
			}
			if !errors.Is(err, errNotCommand) && !strings.HasPrefix(err.Error(), "bad body: ") {
				t.Fatalf("parseSelftestBody(%q) error %q is neither a bad body nor not a command", raw, err)
			}
			return
		}
		if _, _, ok := commands.Parse(body.Text); !ok {
			t.Fatalf("parseSelftestBody(%q) accepted %q, which is not a command", raw, body.Text)
		}
		// decode → encode → decode gives the same body, and encoding that
		// body again gives the same bytes.
		enc, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("encode %+v: %v", body, err)
		}
		back, err := parseSelftestBody(enc)
		if err != nil || back != body {
			t.Fatalf("round trip of %+v through %s = %+v, %v", body, enc, back, err)
		}
		if enc2, err := json.Marshal(back); err != nil || !bytes.Equal(enc2, enc) {
			t.Fatalf("%+v encodes as %s, then as %s (%v)", body, enc, enc2, err)
		}
		if gid, err := commands.GroupRef(body.Group, aliases); err == nil && gid == "" {
			t.Fatalf("GroupRef(%q) resolved to an empty id", body.Group)
		}
	})
}
