package archtable

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	known := map[string]bool{"pkg/a": true, "pkg/b": true, "pkg/c": true, "tool/x": true, "tool/y": true}
	page := func(rows ...string) string {
		return "# T\n\n## The frame path\n\n| package | imports |\n|---|---|\n| `pkg/z` | `q` |\n\n" +
			Heading + "\n\nIntro.\n\n| package | does | imports (of the bot's packages) |\n|---|---|---|\n" +
			strings.Join(rows, "\n") + "\n\nRules.\n\n## Next\n\n| package | imports |\n|---|---|\n| `pkg/y` | — |\n"
	}
	tests := []struct {
		name    string
		page    string
		want    Table
		wantErr string
		all     bool // Read with known nil
	}{
		{
			name: "names, commentary and none",
			page: page("| `pkg/a` | does (with `b`) | `b` (its `Stats` on `/healthz`), `c`; nothing else |",
				"| `pkg/b` | x | — |", "| `tool/x`, `tool/y` | both | `a` (the `T` (nested)) |"),
			want: Table{"pkg/a": {"pkg/b", "pkg/c"}, "pkg/b": nil, "tool/x": {"pkg/a"}, "tool/y": {"pkg/a"}},
		},
		{name: "a typo", page: page("| `pkg/a` | x | `bb` |"), wantErr: `lists "bb", which is no package`},
		{name: "every name, when the module's packages are not given", page: page("| `pkg/new` | x | `bb`, `tool/z` |"), all: true,
			want: Table{"pkg/new": {"pkg/bb", "tool/z"}}},
		{name: "a row for nothing", page: page("| `pkg/gone` | x | — |"), wantErr: `row for "pkg/gone"`},
		{name: "two rows", page: page("| `pkg/a` | x | — |", "| `pkg/a` | y | `b` |"), wantErr: "pkg/a has two rows"},
		{name: "no imports column", page: strings.Replace(page("| `pkg/a` | x | — |"), "imports (of", "deps (of", 1), wantErr: `no "package" or "imports" column`},
		{name: "no table", page: "# T\n\n" + Heading + "\n\nNone.\n", wantErr: "no table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "architecture.md")
			if err := os.WriteFile(path, []byte(tt.page), 0o600); err != nil {
				t.Fatal(err)
			}
			k := known
			if tt.all {
				k = nil
			}
			got, err := Read(path, k)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Read = %v, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !maps.EqualFunc(got, tt.want, slices.Equal) {
				t.Fatalf("Read = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
