package bot

import (
	"slices"
	"strings"
)

// Groups maps configured group aliases to signal-cli group ids and back.
type Groups struct {
	byAlias map[string]string
	byID    map[string]string
	test    map[string]bool // ids of groups selftests may send to
}

// NewGroups indexes alias → signal-cli id; testAliases name the test groups.
func NewGroups(aliases map[string]string, testAliases []string) Groups {
	g := Groups{byAlias: map[string]string{}, byID: map[string]string{}, test: map[string]bool{}}
	for a, id := range aliases {
		g.byAlias[a], g.byID[id] = id, a
	}
	for _, a := range testAliases {
		if id, ok := g.byAlias[a]; ok {
			g.test[id] = true
		}
	}
	return g
}

// Aliases returns alias → id (a copy).
func (g Groups) Aliases() map[string]string {
	m := make(map[string]string, len(g.byAlias))
	for a, id := range g.byAlias {
		m[a] = id
	}
	return m
}

// ID is the signal-cli group id of a configured alias ("" if none).
func (g Groups) ID(alias string) string { return g.byAlias[alias] }

// Alias is the alias of a signal-cli group id, if one is configured.
func (g Groups) Alias(id string) string { return g.byID[id] }

// IsTest tells whether id is a configured test group.
func (g Groups) IsTest(id string) bool { return g.test[id] }

// TestAliases lists the aliases of the test groups with their ids, sorted by
// alias.
func (g Groups) TestAliases() [][2]string {
	var out [][2]string
	for a, id := range g.byAlias {
		if g.test[id] {
			out = append(out, [2]string{a, id})
		}
	}
	slices.SortFunc(out, func(x, y [2]string) int { return strings.Compare(x[0], y[0]) })
	return out
}
