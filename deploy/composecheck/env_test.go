package main

import (
	"encoding/json"
	"maps"
	"testing"
)

func TestEnvironmentForms(t *testing.T) {
	a, b := "1", "x=y"
	tests := []struct {
		name, json string
		want       environment
	}{
		{"mapping", `{"A":"1","B":"x=y","C":null}`, environment{"A": &a, "B": &b, "C": nil}},
		{"list, as after an override", `["A=1","B=x=y","C"]`, environment{"A": &a, "B": &b, "C": nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got environment
			if err := json.Unmarshal([]byte(tt.json), &got); err != nil {
				t.Fatal(err)
			}
			eq := maps.EqualFunc(got, tt.want, func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) })
			if !eq {
				t.Errorf("environment of %s = %v; want %v", tt.json, got, tt.want)
			}
		})
	}
	var bad environment
	if err := json.Unmarshal([]byte(`42`), &bad); err == nil {
		t.Error("environment of 42: no error; want one")
	}
}
