package signalapi

import (
	"encoding/json"
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
