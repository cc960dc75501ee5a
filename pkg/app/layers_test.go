package app

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The import rules of docs/architecture.md, checked on the non-test code of
// every package of the module. Change both together.
func TestImportRules(t *testing.T) {
	const mod = "signal-bot/"
	imports := moduleImports(t, filepath.Join("..", ".."), mod)
	if len(imports) < 15 {
		t.Fatalf("found %d packages; want the whole module", len(imports))
	}
	leaves := []string{"pkg/activation", "pkg/backoff", "pkg/fields", "pkg/outbound", "pkg/signalid", "pkg/store", "pkg/fakeup"}
	testOnly := []string{"pkg/sim", "pkg/fakeup", "pkg/botest"}
	for pkg, deps := range imports {
		for _, dep := range deps {
			switch {
			case slices.Contains(leaves, pkg):
				t.Errorf("%s imports %s; a leaf imports no package of the bot", pkg, dep)
			case pkg == "pkg/config" && dep != "pkg/upstream":
				t.Errorf("pkg/config imports %s; it may import only pkg/upstream (to check UPSTREAM_ALLOW)", dep)
			case pkg == "pkg/telemetry" && dep != "pkg/signalid":
				t.Errorf("pkg/telemetry imports %s; it may import only pkg/signalid", dep)
			case slices.Contains([]string{"pkg/pipeline", "pkg/signalapi", "pkg/journal"}, pkg) && !slices.Contains(leaves, dep):
				t.Errorf("%s imports %s; the scheduler, the receivers and the journal import only leaves (the receivers call up only through signalapi.Intake)", pkg, dep)
			case pkg == "pkg/commands" && !slices.Contains(leaves, dep):
				t.Errorf("pkg/commands imports %s; it declares interfaces for what it needs and imports only leaves", dep)
			case pkg == "pkg/sim" && dep != "pkg/signalid":
				t.Errorf("pkg/sim imports %s; the simulator shares only pkg/signalid with the bot", dep)
			case dep == "pkg/app" && !strings.HasPrefix(pkg, "cmd/") && !strings.HasPrefix(pkg, "tool/") && pkg != "pkg/botest":
				t.Errorf("%s imports pkg/app; only cmd/, tool/ and pkg/botest start the bot", pkg)
			case slices.Contains(testOnly, dep) && strings.HasPrefix(pkg, "pkg/") && !slices.Contains(testOnly, pkg):
				t.Errorf("%s imports %s outside its tests; the bot's packages never use the simulator, the fakes or the harness", pkg, dep)
			}
		}
	}
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
