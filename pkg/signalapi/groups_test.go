package signalapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

// Members come as objects with ?expand=true (REST API 0.99 and later) and as
// strings in the plain form (older releases, or without the parameter), where a
// hidden number is listed by its uuid.
func TestMemberBothForms(t *testing.T) {
	const uuid = "a2b8d2cf-6c4f-4d43-9e3b-1f5e8a1c2d3e"
	tests := []struct {
		name string
		in   string
		want []Member
	}{
		{"expanded", `[{"number":"+48500000001","uuid":"` + uuid + `"}]`, []Member{{Number: "+48500000001", UUID: uuid}}},
		{"expanded, number hidden", `[{"number":"","uuid":"` + uuid + `"}]`, []Member{{UUID: uuid}}},
		{"expanded, number null", `[{"number":null,"uuid":"` + uuid + `"}]`, []Member{{UUID: uuid}}},
		{"plain number", `["+48500000001"]`, []Member{{Number: "+48500000001"}}},
		{"plain uuid (number hidden)", `["` + uuid + `"]`, []Member{{UUID: uuid}}},
		{"mixed", `["+48500000001",{"number":"","uuid":"` + uuid + `"}]`, []Member{{Number: "+48500000001"}, {UUID: uuid}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Member
			if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("members = %+v; want %+v", got, tt.want)
			}
		})
	}
	var m []Member
	if err := json.Unmarshal([]byte(`[5]`), &m); err == nil {
		t.Error("a number as a member decoded; want an error")
	}
}

// Groups asks with ?expand=true once; only a 400 makes it ask again without
// the parameter, and any other failure is returned as it is.
func TestGroupsFallsBackOnlyOn400(t *testing.T) {
	const plain = `[{"name":"g","id":"group.x","internal_id":"x","members":["+48500000002"]}]`
	tests := []struct {
		name         string
		expandStatus int // the answer to ?expand=true; the plain form is always 200
		wantCalls    int
		wantErr      bool
	}{
		{"expand answered", http.StatusOK, 1, false},
		{"expand refused", http.StatusBadRequest, 2, false},
		{"server failing", http.StatusInternalServerError, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls = append(calls, r.URL.RawQuery)
				if r.URL.Query().Get("expand") == "true" && tt.expandStatus != http.StatusOK {
					w.WriteHeader(tt.expandStatus)
					_, _ = w.Write([]byte(`{"error":"no"}`))
					return
				}
				_, _ = w.Write([]byte(plain))
			}))
			defer srv.Close()
			c := New(testConfig(srv.URL, "+48500000001"), srv.Client())
			gs, err := c.Groups(context.Background())
			if len(calls) != tt.wantCalls || calls[0] != "expand=true" || (err != nil) != tt.wantErr {
				t.Fatalf("calls %q, err %v; want %d calls, the first with expand=true, error %v", calls, err, tt.wantCalls, tt.wantErr)
			}
			if !tt.wantErr && (len(gs) != 1 || !reflect.DeepEqual(gs[0].Members, []Member{{Number: "+48500000002"}})) {
				t.Errorf("groups = %+v; want the plain form read", gs)
			}
		})
	}
}
