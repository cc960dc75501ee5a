package app

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// archTable is the package table of docs/architecture.md: each package named
// in a row's first column, with the bot's packages (pkg/...) its imports
// column lists.
type archTable map[string][]string

// tableHeading is the section of docs/architecture.md that holds the table.
const tableHeading = "## Packages and what each may import"

var backticked = regexp.MustCompile("`([^`]+)`")

// readArchTable reads the package table of the architecture page at path.
// The first column names one or more packages in backticks (`pkg/bot`,
// `tool/soak`); the column whose header starts with "imports" lists the
// imports in backticks by their short name (`bot` is pkg/bot), with "—"
// for none; text in parentheses is commentary and is not read. known says
// which paths are packages of the module: a name that is none is an error,
// so a typo cannot hide a rule.
func readArchTable(path string, known map[string]bool) (archTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read the package table: %w", err)
	}
	defer f.Close()
	rows, err := tableRows(bufio.NewScanner(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("%s: no table under %q", path, tableHeading)
	}
	pkgCol, impCol := -1, -1
	for i, h := range rows[0] {
		switch h = strings.ToLower(h); {
		case h == "package":
			pkgCol = i
		case strings.HasPrefix(h, "imports"):
			impCol = i
		}
	}
	if pkgCol < 0 || impCol < 0 {
		return nil, fmt.Errorf("%s: the table under %q has no \"package\" or \"imports\" column: %q", path, tableHeading, rows[0])
	}
	table := archTable{}
	for _, row := range rows[1:] {
		if len(row) <= max(pkgCol, impCol) {
			return nil, fmt.Errorf("%s: short row %q", path, row)
		}
		if err := table.addRow(row[pkgCol], row[impCol], known); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return table, nil
}

// addRow adds the packages of one row with the imports its cell lists.
func (t archTable) addRow(pkgCell, impCell string, known map[string]bool) error {
	pkgs := names(pkgCell)
	if len(pkgs) == 0 {
		return fmt.Errorf("row %q names no package in backticks", pkgCell)
	}
	var imports []string
	for _, name := range names(stripParens(impCell)) {
		dep := "pkg/" + name
		if strings.Contains(name, "/") {
			dep = name
		}
		if !known[dep] {
			return fmt.Errorf("the row of %s lists %q, which is no package of the module", pkgCell, name)
		}
		imports = append(imports, dep)
	}
	for _, p := range pkgs {
		if !known[p] {
			return fmt.Errorf("the table has a row for %q, which is no package of the module", p)
		}
		if _, dup := t[p]; dup {
			return fmt.Errorf("%s has two rows", p)
		}
		t[p] = imports
	}
	return nil
}

// tableRows returns the cells of the first table under tableHeading, its
// header first, without the separator line.
func tableRows(sc *bufio.Scanner) ([][]string, error) {
	var rows [][]string
	inSection := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "## "):
			if inSection && len(rows) > 0 {
				return rows, nil
			}
			inSection = line == tableHeading
		case inSection && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if len(rows) == 1 && strings.Trim(strings.Join(cells, ""), "-: ") == "" {
				continue // the separator under the header
			}
			rows = append(rows, cells)
		case inSection && len(rows) > 0:
			return rows, nil // the table ended
		}
	}
	return rows, sc.Err()
}

// names returns the words in backticks of s.
func names(s string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// stripParens removes every parenthesized part of s, nested ones too.
func stripParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestReadArchTable(t *testing.T) {
	known := map[string]bool{"pkg/a": true, "pkg/b": true, "pkg/c": true, "tool/x": true, "tool/y": true}
	page := func(rows ...string) string {
		return "# T\n\n## The frame path\n\n| package | imports |\n|---|---|\n| `pkg/z` | `q` |\n\n" +
			tableHeading + "\n\nIntro.\n\n| package | does | imports (of the bot's packages) |\n|---|---|---|\n" +
			strings.Join(rows, "\n") + "\n\nRules.\n\n## Next\n\n| package | imports |\n|---|---|\n| `pkg/y` | — |\n"
	}
	tests := []struct {
		name    string
		page    string
		want    archTable
		wantErr string
	}{
		{
			name: "names, commentary and none",
			page: page("| `pkg/a` | does (with `b`) | `b` (its `Stats` on `/healthz`), `c`; nothing else |",
				"| `pkg/b` | x | — |", "| `tool/x`, `tool/y` | both | `a` (the `T` (nested)) |"),
			want: archTable{"pkg/a": {"pkg/b", "pkg/c"}, "pkg/b": nil, "tool/x": {"pkg/a"}, "tool/y": {"pkg/a"}},
		},
		{name: "a typo", page: page("| `pkg/a` | x | `bb` |"), wantErr: `lists "bb", which is no package`},
		{name: "a row for nothing", page: page("| `pkg/gone` | x | — |"), wantErr: `row for "pkg/gone"`},
		{name: "two rows", page: page("| `pkg/a` | x | — |", "| `pkg/a` | y | `b` |"), wantErr: "pkg/a has two rows"},
		{name: "no imports column", page: strings.Replace(page("| `pkg/a` | x | — |"), "imports (of", "deps (of", 1), wantErr: `no "package" or "imports" column`},
		{name: "no table", page: "# T\n\n" + tableHeading + "\n\nNone.\n", wantErr: "no table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "architecture.md")
			if err := os.WriteFile(path, []byte(tt.page), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := readArchTable(path, known)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("readArchTable = %v, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !maps.EqualFunc(got, tt.want, slices.Equal) {
				t.Fatalf("readArchTable = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
