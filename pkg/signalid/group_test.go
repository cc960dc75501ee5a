package signalid

import (
	"strings"
	"testing"
)

// The pair from a real REST API: a frame's groupInfo.groupId and the id that
// GET /v1/groups lists for it.
const (
	internal = "Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI="
	rest     = "group.UG1waStFZlBXbXN4aW9tTGU5TngyWEY5SE9FNDgzcDZpS2lGajY1aU13ST0="
)

func TestRESTGroupID(t *testing.T) {
	if got := RESTGroupID(internal); got != rest {
		t.Errorf("RESTGroupID(%q) = %q; want %q", internal, got, rest)
	}
}

func TestInternalGroupID(t *testing.T) {
	tests := []struct {
		id, want string
		wantErr  bool
	}{
		{id: rest, want: internal},
		{id: internal, want: internal},
		{id: "group.!!!", wantErr: true},
		{id: "group." + "YWJj", wantErr: true}, // base64 of "abc": not 32 bytes
		{id: "YWJjZA==", wantErr: true},        // 4 bytes
		{id: "testbot", wantErr: true},
		{id: "", wantErr: true},
	}
	for _, tt := range tests {
		got, err := InternalGroupID(tt.id)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("InternalGroupID(%q) = %q, %v; want %q, error %v", tt.id, got, err, tt.want, tt.wantErr)
		}
	}
}

func FuzzInternalGroupID(f *testing.F) {
	f.Add(rest)
	f.Add(internal)
	f.Add("group.")
	f.Fuzz(func(t *testing.T, id string) {
		in, err := InternalGroupID(id)
		if err != nil {
			return
		}
		if again, err := InternalGroupID(RESTGroupID(in)); err != nil || again != in {
			t.Fatalf("InternalGroupID(RESTGroupID(%q)) = %q, %v; want the same id back", in, again, err)
		}
		if strings.HasPrefix(in, GroupPrefix) {
			t.Fatalf("internal id %q starts with %q", in, GroupPrefix)
		}
	})
}
