// Package doccheck keeps the docs honest: every relative link in a page and
// every reference to a page from the code (docs/<page>.md, with #anchor,
// " §N" or `, "Heading"` after it) must resolve, and every table of
// measured figures must sit in a section that names the command, test or
// benchmark producing it. TestDocs runs it over the repository.
package doccheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Heading is one ATX heading of a page: its level, its text as written and
// the anchor GitHub gives it.
type Heading struct {
	Level  int
	Text   string
	Anchor string
	Line   int
}

// Page is a Markdown page read once: its headings, explicit anchors
// (<a id="…">) and its lines, prose and fenced code apart.
type Page struct {
	Headings []Heading
	anchors  map[string]bool
	prose    []string // the lines, with fenced code replaced by ""
	fenced   []string // the lines of fenced code, the others ""
}

var (
	atx      = regexp.MustCompile(`^(#{1,6})[ \t]+(.*?)[ \t#]*$`)
	htmlID   = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	linkRe   = regexp.MustCompile(`!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^()\s]*)\)`)
	codeSpan = regexp.MustCompile("`[^`]*`")
	inlineMd = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// Parse reads a page.
func Parse(text string) *Page {
	p := &Page{anchors: map[string]bool{}}
	seen := map[string]int{}
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			p.fenced = append(p.fenced, line)
			p.prose = append(p.prose, "")
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			p.fenced = append(p.fenced, "")
			p.prose = append(p.prose, "")
			continue
		}
		p.fenced = append(p.fenced, "")
		p.prose = append(p.prose, line)
		for _, m := range htmlID.FindAllStringSubmatch(line, -1) {
			p.anchors[m[1]] = true
		}
		m := atx.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := Slug(m[2])
		if n := seen[slug]; n > 0 {
			seen[slug]++
			slug = fmt.Sprintf("%s-%d", slug, n)
		} else {
			seen[slug] = 1
		}
		p.anchors[slug] = true
		p.Headings = append(p.Headings, Heading{Level: len(m[1]), Text: m[2], Anchor: slug, Line: i + 1})
	}
	return p
}

// HasAnchor reports whether #anchor lands on this page.
func (p *Page) HasAnchor(anchor string) bool { return p.anchors[anchor] }

// Slug is the anchor GitHub makes of a heading: links reduced to their
// text, lower case, every character but letters, digits, '-', '_' and
// spaces dropped (backticks, dots, colons, '§', emoji), spaces made '-'.
func Slug(heading string) string {
	heading = inlineMd.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Link is one inline link of a page, outside code.
type Link struct {
	Target string
	Line   int
}

// Links lists the page's inline links, outside fenced code and code spans.
func (p *Page) Links() []Link {
	var out []Link
	for i, line := range p.prose {
		line = codeSpan.ReplaceAllString(line, "")
		for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
			out = append(out, Link{Target: m[2], Line: i + 1})
		}
	}
	return out
}

// Numbered finds the heading numbered n ("## 9. Backups", "### 5.1 …").
func (p *Page) Numbered(n string) bool {
	for _, h := range p.Headings {
		if h.Text == n || strings.HasPrefix(h.Text, n+". ") || strings.HasPrefix(h.Text, n+" ") {
			return true
		}
	}
	return false
}

// Titled finds a heading whose text, without its number and backticks,
// starts with title (case folded): what `docs/<page>.md, "Title"` points at.
func (p *Page) Titled(title string) bool {
	want := strings.ToLower(strings.TrimSpace(title))
	for _, h := range p.Headings {
		text := strings.ToLower(strings.ReplaceAll(h.Text, "`", ""))
		text = strings.TrimLeft(text, "0123456789. ")
		if strings.HasPrefix(text, want) {
			return true
		}
	}
	return false
}
