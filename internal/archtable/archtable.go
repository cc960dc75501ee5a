// Package archtable reads the package table of docs/architecture.md, the
// allowlist of imports that pkg/app's TestImportRules enforces and
// tool/framepath reads to tell an up-call from a call down.
package archtable

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Table is the package table of docs/architecture.md: each package named
// in a row's first column, with the bot's packages (pkg/...) its imports
// column lists.
type Table map[string][]string

// Heading is the section of docs/architecture.md that holds the table.
const Heading = "## Packages and what each may import"

// Read reads the package table of the architecture page at path.
// The first column names one or more packages in backticks (`pkg/bot`,
// `tool/soak`); the column whose header starts with "imports" lists the
// imports in backticks by their short name (`bot` is pkg/bot), with "—"
// for none; text in parentheses is commentary and is not read. known says
// which paths are packages of the module: a name that is none is an error,
// so a typo cannot hide a rule; with known nil, every name is taken.
func Read(path string, known map[string]bool) (Table, error) {
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
		return nil, fmt.Errorf("%s: no table under %q", path, Heading)
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
		return nil, fmt.Errorf("%s: the table under %q has no \"package\" or \"imports\" column: %q", path, Heading, rows[0])
	}
	table := Table{}
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
func (t Table) addRow(pkgCell, impCell string, known map[string]bool) error {
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
		if known != nil && !known[dep] {
			return fmt.Errorf("the row of %s lists %q, which is no package of the module", pkgCell, name)
		}
		imports = append(imports, dep)
	}
	for _, p := range pkgs {
		if known != nil && !known[p] {
			return fmt.Errorf("the table has a row for %q, which is no package of the module", p)
		}
		if _, dup := t[p]; dup {
			return fmt.Errorf("%s has two rows", p)
		}
		t[p] = imports
	}
	return nil
}

// tableRows returns the cells of the first table under Heading, its
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
			inSection = line == Heading
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
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(s, -1) {
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
