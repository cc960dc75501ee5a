package doccheck

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Repo is the repository's pages, read once, by path relative to its root
// with forward slashes (docs/faults.md, README.md).
type Repo struct {
	Root  string
	Pages map[string]*Page
}

// Load reads every Markdown page of the repository but testdata's.
func Load(root string) (*Repo, error) {
	r := &Repo{Root: root, Pages: map[string]*Page{}}
	err := walk(root, func(rel string) error {
		if !strings.HasSuffix(rel, ".md") {
			return nil
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		r.Pages[rel] = Parse(string(b))
		return nil
	})
	return r, err
}

// walk calls fn with each file's path relative to root, skipping hidden
// folders and testdata.
func walk(root string, fn func(rel string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		return fn(rel)
	})
}

// CheckLinks lists every relative link of every page that points to a file
// that does not exist, or to an anchor its page does not have.
func (r *Repo) CheckLinks() []string {
	var bad []string
	for _, rel := range sortedKeys(r.Pages) {
		for _, l := range r.Pages[rel].Links() {
			if msg := r.resolve(rel, l.Target); msg != "" {
				bad = append(bad, fmt.Sprintf("%s:%d: link %q: %s", rel, l.Line, l.Target, msg))
			}
		}
	}
	return bad
}

// resolve checks one link target of the page from; "" when it resolves.
func (r *Repo) resolve(from, target string) string {
	if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, anchor, _ := strings.Cut(target, "#")
	dest := from
	if file != "" {
		dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(from), file)))
		if _, err := os.Stat(filepath.Join(r.Root, dest)); err != nil {
			return "no such file " + dest
		}
	}
	if anchor == "" {
		return ""
	}
	page, ok := r.Pages[dest]
	if !ok {
		return "an anchor into a file that is no Markdown page"
	}
	if !page.HasAnchor(anchor) {
		return "no heading or anchor #" + anchor + " in " + dest
	}
	return ""
}

// A reference from the code or a page's text to a doc: docs/<page>.md, then
// optionally #anchor, " §N" / ", section N", or `, "Heading"` / ` ("Heading")`.
var refRe = regexp.MustCompile(`docs/([A-Za-z0-9_-]+\.md)(#[A-Za-z0-9_-]+)?` +
	`(?:,? (?:§ ?|section )(\d+(?:\.\d+)?[a-z]?))?` +
	`(?:(?:, | \()\\?"([^"\\]{3,})\\?")?`)

// commentJoin joins a comment's continuation lines, so that a reference
// cut by a line break reads whole.
var commentJoin = regexp.MustCompile(`\n[ \t]*(?://|#)[ \t]*`)

// CheckRefs lists every reference to docs/… in the repository's files
// (code, comments, messages, configuration, pages) that does not resolve.
func (r *Repo) CheckRefs() ([]string, error) {
	var bad []string
	err := walk(r.Root, func(rel string) error {
		if !scanned(rel) {
			return nil
		}
		b, err := os.ReadFile(filepath.Join(r.Root, rel))
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		text := commentJoin.ReplaceAllString(string(b), " ")
		for _, m := range refRe.FindAllStringSubmatch(text, -1) {
			if msg := r.ref(m[1], strings.TrimPrefix(m[2], "#"), m[3], m[4]); msg != "" {
				bad = append(bad, fmt.Sprintf("%s: %q: %s", rel, m[0], msg))
			}
		}
		return nil
	})
	return bad, err
}

// ref checks one reference; "" when it resolves.
func (r *Repo) ref(file, anchor, number, title string) string {
	page, ok := r.Pages["docs/"+file]
	if !ok {
		return "no page docs/" + file
	}
	switch {
	case anchor != "" && !page.HasAnchor(anchor):
		return "no anchor #" + anchor
	case number != "" && !page.Numbered(number):
		return "no section numbered " + number
	case title != "" && !page.Titled(title):
		return fmt.Sprintf("no heading %q", title)
	}
	return ""
}

// scanned says which files CheckRefs reads.
func scanned(rel string) bool {
	base := filepath.Base(rel)
	switch filepath.Ext(rel) {
	case ".go", ".sh", ".yaml", ".yml", ".toml", ".service", ".socket", ".example", ".md":
		return true
	}
	return base == "Dockerfile"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
