package doccheck

import (
	"fmt"
	"regexp"
	"strings"
)

// A measured figure in a table row: a number (with a range) and a unit of
// time, size or rate, outside code spans. A setting's default is written
// in backticks, so it is no figure.
var figureRe = regexp.MustCompile(`(?:^|[^\w.])\d[\d,]*(?:\.\d+)?(?:[–-]\d[\d,]*(?:\.\d+)?)? ?` +
	`(?:ms|µs|MiB|MB|KiB|KB|kB|GB|%|replies/s|POSTs/s)(?:$|[^\w])`)

// What names the command that produces a figure: a test, benchmark or fuzz
// target by name, or a command line in code.
var (
	testName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z]\w*`)
	cmdLine  = regexp.MustCompile(`go test|go run|scripts/|deploy/check\.sh|deploy/restartloss\.sh|\./soak|\./latency|\.test -test\.|tool/`)
)

// CheckFigures lists the sections of a page (between two headings) with a
// table row quoting a measured figure and no command, test or benchmark
// that produces it anywhere in the section.
func (p *Page) CheckFigures() []string {
	var bad []string
	start := 0
	flush := func(end int) {
		if row := p.figureRow(start, end); row > 0 && !p.namesCommand(start, end) {
			bad = append(bad, fmt.Sprintf("line %d: a figure with no command, test or benchmark in its section", row))
		}
	}
	for _, h := range p.Headings {
		flush(h.Line - 1)
		start = h.Line - 1
	}
	flush(len(p.prose))
	return bad
}

// figureRow is the 1-based line of the first table row with a figure in
// lines [from, to), or 0.
func (p *Page) figureRow(from, to int) int {
	for i := from; i < to; i++ {
		line := strings.TrimSpace(p.prose[i])
		if !strings.HasPrefix(line, "|") {
			continue
		}
		if figureRe.MatchString(codeSpan.ReplaceAllString(line, "")) {
			return i + 1
		}
	}
	return 0
}

// namesCommand reports whether lines [from, to) name a test, a benchmark or
// a command, in prose or in code.
func (p *Page) namesCommand(from, to int) bool {
	for i := from; i < to; i++ {
		line := p.prose[i]
		if testName.MatchString(line) {
			return true
		}
		for _, span := range codeSpan.FindAllString(line, -1) {
			if cmdLine.MatchString(span) {
				return true
			}
		}
		if line == "" && p.codeAt(i) != "" && cmdLine.MatchString(p.codeAt(i)) {
			return true
		}
	}
	return false
}

// codeAt is the line i if it lies in fenced code, else "".
func (p *Page) codeAt(i int) string {
	if i < len(p.fenced) {
		return p.fenced[i]
	}
	return ""
}
