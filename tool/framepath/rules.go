package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// tableHeading is the section of docs/architecture.md that holds the
// package table, which pkg/app's TestImportRules reads as the allowlist.
const tableHeading = "## Packages and what each may import"

var backticked = regexp.MustCompile("`([^`]+)`")

// readAllowed reads the package table of the architecture page at path:
// each package of a row's first column, with the packages its imports
// column lists (`bot` is pkg/bot; text in parentheses is commentary).
func readAllowed(path string) (map[string]map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read the package table: %w", err)
	}
	defer f.Close()
	allowed, err := parseAllowed(bufio.NewScanner(f))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return allowed, nil
}

// parseAllowed reads the first table under tableHeading: its first column
// names the packages, the column whose header starts with "imports" what
// they may import.
func parseAllowed(sc *bufio.Scanner) (map[string]map[string]bool, error) {
	allowed := map[string]map[string]bool{}
	in, impCol := false, -1
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "## ") {
			if len(allowed) > 0 {
				break
			}
			in = line == tableHeading
			continue
		}
		if !in || !strings.HasPrefix(line, "|") {
			if in && len(allowed) > 0 {
				break // the table ended
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if impCol < 0 {
			for i, c := range cells {
				if strings.HasPrefix(strings.ToLower(strings.TrimSpace(c)), "imports") {
					impCol = i
				}
			}
			if impCol < 0 {
				return nil, fmt.Errorf("the table under %q has no imports column", tableHeading)
			}
			continue
		}
		if len(cells) <= impCol || strings.Trim(cells[0], "-: ") == "" {
			continue // the separator under the header
		}
		deps := map[string]bool{}
		for _, name := range names(stripParens(cells[impCol])) {
			if !strings.Contains(name, "/") {
				name = "pkg/" + name
			}
			deps[name] = true
		}
		for _, p := range names(cells[0]) {
			allowed[p] = deps
		}
	}
	if len(allowed) == 0 {
		return nil, fmt.Errorf("no table under %q", tableHeading)
	}
	return allowed, sc.Err()
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
