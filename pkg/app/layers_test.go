package app

import (
	"signal-bot/internal/archtable"

	"fmt"
	"go/build"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImportRules checks the non-test imports of every package of the module
// against docs/architecture.md: its package table is the allowlist, read as
// written (an import of a bot package that the table does not list fails,
// and so does a listed import the code does not have), and the rules under
// the table hold whatever the table says.
func TestImportRules(t *testing.T) {
	root := filepath.Join("..", "..")
	imports := moduleImports(t, root, "signal-bot/")
	if len(imports) < 15 {
		t.Fatalf("found %d packages; want the whole module", len(imports))
	}
	known := map[string]bool{}
	for pkg := range imports {
		known[pkg] = true
	}
	table, err := archtable.Read(filepath.Join(root, "docs", "architecture.md"), known)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		for _, msg := range checkTable(pkg, imports[pkg], table) {
			t.Error(msg)
		}
		for _, dep := range imports[pkg] {
			if msg := checkRule(pkg, dep); msg != "" {
				t.Error(msg)
			}
		}
	}
}

// checkTable compares the bot packages (pkg/...) that pkg imports with its
// row of the table. Every package of the bot needs a row; a package elsewhere
// (cmd/, tool/, deploy/) needs one as soon as it imports a bot package.
func checkTable(pkg string, deps []string, table archtable.Table) []string {
	var got []string
	for _, dep := range deps {
		if strings.HasPrefix(dep, "pkg/") {
			got = append(got, dep)
		}
	}
	want, ok := table[pkg]
	if !ok {
		if strings.HasPrefix(pkg, "pkg/") || len(got) > 0 {
			return []string{fmt.Sprintf("docs/architecture.md has no row for %s (it imports %v)", pkg, got)}
		}
		return nil
	}
	var msgs []string
	for _, dep := range got {
		if !slices.Contains(want, dep) {
			msgs = append(msgs, fmt.Sprintf("%s imports %s, which its row in docs/architecture.md does not allow (it lists %v)", pkg, dep, want))
		}
	}
	for _, dep := range want {
		if !slices.Contains(got, dep) {
			msgs = append(msgs, fmt.Sprintf("docs/architecture.md lists %s as an import of %s, which does not import it; correct the row", dep, pkg))
		}
	}
	return msgs
}

// checkRule holds one import to the rules under the table, which no edit of
// the table lifts. It returns what is wrong, or "".
func checkRule(pkg, dep string) string {
	leaves := []string{"pkg/activation", "pkg/backoff", "pkg/outbound", "pkg/signalid", "pkg/store", "pkg/fakeup"}
	testOnly := []string{"pkg/sim", "pkg/fakeup", "pkg/botest", "internal/testkit"}
	// config embeds the settings structs of these packages; none of them
	// imports config.
	configured := []string{"pkg/admin", "pkg/bot", "pkg/commands", "pkg/httpapi", "pkg/journal", "pkg/outbound", "pkg/owncmds", "pkg/pictures", "pkg/pipeline", "pkg/schedule", "pkg/signalapi", "pkg/store", "pkg/upstream"}
	switch {
	case slices.Contains(leaves, pkg):
		return fmt.Sprintf("%s imports %s; a leaf imports no package of the bot", pkg, dep)
	case pkg == "pkg/config" && !slices.Contains(configured, dep):
		return fmt.Sprintf("pkg/config imports %s; it may import only the packages whose settings it embeds, %v", dep, configured)
	case dep == "pkg/config" && strings.HasPrefix(pkg, "pkg/") && pkg != "pkg/app" && pkg != "pkg/botest":
		return fmt.Sprintf("%s imports pkg/config; a package declares its own settings struct, and only app (and the harness) read config", pkg)
	case pkg == "pkg/bot" && dep == "pkg/admin":
		return "pkg/bot imports pkg/admin; the console sits above the bot, which reaches it only through bot.Console"
	case pkg == "pkg/telemetry" && dep != "pkg/signalid":
		return fmt.Sprintf("pkg/telemetry imports %s; it may import only pkg/signalid", dep)
	case slices.Contains([]string{"pkg/pipeline", "pkg/signalapi", "pkg/journal", "pkg/schedule"}, pkg) && !slices.Contains(leaves, dep):
		return fmt.Sprintf("%s imports %s; the scheduler, the receivers, the journal and the scheduled posts import only leaves (the receivers call up only through signalapi.Intake, the posts through the function they are given)", pkg, dep)
	case pkg == "pkg/commands" && !slices.Contains(leaves, dep):
		return fmt.Sprintf("pkg/commands imports %s; it declares interfaces for what it needs and imports only leaves", dep)
	case pkg == "pkg/sim" && dep != "pkg/signalid":
		return fmt.Sprintf("pkg/sim imports %s; the simulator shares only pkg/signalid with the bot", dep)
	case dep == "pkg/app" && !strings.HasPrefix(pkg, "cmd/") && !strings.HasPrefix(pkg, "tool/") && pkg != "pkg/botest":
		return fmt.Sprintf("%s imports pkg/app; only cmd/, tool/ and pkg/botest start the bot", pkg)
	case slices.Contains(testOnly, dep) && strings.HasPrefix(pkg, "pkg/") && !slices.Contains(testOnly, pkg):
		return fmt.Sprintf("%s imports %s outside its tests; the bot's packages never use the simulator, the fakes or the harness", pkg, dep)
	}
	return ""
}

// moduleImports maps each package below root (as a path relative to it) to
// the module's packages its non-test files import, also relative.
func moduleImports(t *testing.T, root, mod string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "otel" || name == "lint") {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		var deps []string
		for _, imp := range p.Imports {
			if dep, ok := strings.CutPrefix(imp, mod); ok {
				deps = append(deps, dep)
			}
		}
		out[filepath.ToSlash(rel)] = deps
		return nil
	})
	if err != nil {
		t.Fatalf("walk the module: %v", err)
	}
	return out
}
