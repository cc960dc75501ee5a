package telemetry

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSpansMDListsTheVocabulary checks that otel/SPANS.md, the contract for
// dashboards and queries, names every span, attribute key and value declared
// in spans.go, each in backticks.
func TestSpansMDListsTheVocabulary(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "otel", "SPANS.md"))
	if err != nil {
		t.Fatal(err)
	}
	vocab := vocabulary(t, "spans.go")
	if len(vocab) < 30 {
		t.Fatalf("found %d names in spans.go; want them all", len(vocab))
	}
	for name, value := range vocab {
		if !strings.Contains(string(doc), "`"+value+"`") {
			t.Errorf("otel/SPANS.md does not list %s (`%s`)", name, value)
		}
	}
}

// vocabulary maps each constant of file named Span…, Attr…, Outcome…, Leg… or
// Chat… to its value: a string literal, or the literal of attribute.Key(…).
func vocabulary(t *testing.T, file string) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, id := range vs.Names {
				if !hasAnyPrefix(id.Name, "Span", "Attr", "Outcome", "Leg", "Chat") {
					continue
				}
				out[id.Name] = constString(t, id.Name, vs.Values[i])
			}
		}
	}
	return out
}

func constString(t *testing.T, name string, e ast.Expr) string {
	t.Helper()
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		e = call.Args[0]
	}
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		t.Fatalf("%s is no string literal nor attribute.Key of one", name)
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func TestChatKind(t *testing.T) {
	for _, tt := range []struct{ groupID, want string }{
		{"", ChatDirect},
		{"Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=", ChatGroup},
	} {
		if got := ChatKind(tt.groupID); got != tt.want {
			t.Errorf("ChatKind(%q) = %q; want %q", tt.groupID, got, tt.want)
		}
	}
}
