package main

import (
	"fmt"

	"signal-bot/internal/archtable"
)

// readAllowed reads the package table of the architecture page at path
// (archtable.Read, as pkg/app's TestImportRules does): each package of a
// row's first column, with the packages its imports column lists.
func readAllowed(path string) (map[string]map[string]bool, error) {
	t, err := archtable.Read(path, nil)
	if err != nil {
		return nil, fmt.Errorf("read the package table: %w", err)
	}
	allowed := make(map[string]map[string]bool, len(t))
	for p, deps := range t {
		allowed[p] = map[string]bool{}
		for _, d := range deps {
			allowed[p][d] = true
		}
	}
	return allowed, nil
}
