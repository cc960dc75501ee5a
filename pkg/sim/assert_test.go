package sim

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"
)

// itoa formats an int64 in decimal.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// wantKeys fails unless m has every key (null counts as present).
func wantKeys(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q in %v", k, sortedKeys(m))
		}
	}
}

// wantAbsent fails if m has any of keys.
func wantAbsent(t *testing.T, m map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if v, ok := m[k]; ok {
			t.Errorf("key %q = %v; want absent", k, v)
		}
	}
}

// wantValue fails unless m[key] is present and equals want. Numbers (decoded as
// json.Number) compare by their decimal text; nil means JSON null.
func wantValue(t *testing.T, m map[string]any, key string, want any) {
	t.Helper()
	got, ok := m[key]
	if !ok {
		t.Errorf("missing key %q; want %v", key, want)
		return
	}
	if n, isNum := got.(json.Number); isNum {
		got = n.String()
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || (got == nil) != (want == nil) {
		t.Errorf("%s = %#v; want %#v", key, got, want)
	}
}

// wantObject returns m[key] as an object, failing the test if it is not one.
func wantObject(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	o, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("%s = %#v; want an object", key, m[key])
	}
	return o
}
