package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// merged are the frame's stacks of several runs, each with the number of
// runs that recorded it and each of its kinds.
type merged struct {
	runs   int
	stacks map[string]*mergedStack
	files  map[string]int // a file: in how many runs a stack held it
	ups    map[upCall]int // an up-call: in how many runs
}

type mergedStack struct {
	before, files []string
	runs          int
	kinds         map[string]int
}

// merge adds one run's stacks.
func (m *merged) merge(run map[string]*frameStack, allowed map[string]map[string]bool) {
	m.runs++
	files, ups := map[string]bool{}, map[upCall]bool{}
	for k, s := range run {
		counted := !incidental(s.kinds)
		ms := m.stacks[k]
		if ms == nil {
			ms = &mergedStack{before: s.before, files: s.files, kinds: map[string]int{}}
			m.stacks[k] = ms
		}
		ms.runs++
		for kind := range s.kinds {
			ms.kinds[kind]++
		}
		if !counted {
			continue
		}
		for _, f := range s.files {
			files[f] = true
		}
		for _, u := range upCalls(s.files, allowed) {
			ups[u] = true
		}
	}
	for f := range files {
		m.files[f]++
	}
	for u := range ups {
		m.ups[u]++
	}
}

// loadRun reads the two traces a run wrote into dir and returns the
// frame's stacks.
func loadRun(mod, dir string) (map[string]*frameStack, error) {
	var evs [2][]event
	for i, name := range []string{"idle.trace", "frame.trace"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		if evs[i], err = readEvents(mod, data); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return frameStacks(evs[0], evs[1]), nil
}

// sometimes says in how many of the runs something was seen, if not all.
func (m *merged) sometimes(n int) string {
	if n == m.runs {
		return ""
	}
	return fmt.Sprintf("  (sometimes: %d of %d runs)", n, m.runs)
}

// print writes the path: its files grouped as the call path and the leaves
// (packages under pkg/ named in leaves), the stacks, and the up-calls.
func (m *merged) print(w io.Writer, mode string, leaves map[string]bool) {
	m.printHeader(w, mode)
	var call, leaf []string
	for _, f := range sortedKeys(m.files) {
		if leaves[path.Dir(f)] {
			leaf = append(leaf, f)
		} else {
			call = append(call, f)
		}
	}
	for _, g := range []struct {
		name  string
		files []string
	}{{"call path", call}, {"leaves", leaf}} {
		fmt.Fprintf(w, "\n%s (%d files in %d packages):\n", g.name, len(g.files), countPkgs(g.files))
		for _, f := range g.files {
			fmt.Fprintf(w, "  %s%s\n", f, m.sometimes(m.files[f]))
		}
	}
	m.printStacks(w)
	m.printUpCalls(w)
}

// printHeader writes the counts of what every run saw, and of the rest.
func (m *merged) printHeader(w io.Writer, mode string) {
	var always []string
	for _, f := range sortedKeys(m.files) {
		if m.files[f] == m.runs {
			always = append(always, f)
		}
	}
	up, across := 0, 0
	for u, n := range m.ups {
		switch {
		case n != m.runs:
		case u.up:
			up++
		default:
			across++
		}
	}
	fmt.Fprintf(w, "path (stacks): one !pomoc by %s, %d runs: %d files in %d packages, %d up-calls and %d calls across in every run",
		mode, m.runs, len(always), countPkgs(always), up, across)
	if n, u := len(m.files)-len(always), len(m.ups)-up-across; n+u > 0 {
		fmt.Fprintf(w, "; %d more files and %d more such calls in some", n, u)
	}
	fmt.Fprintln(w)
}

// printStacks writes each stack's files and what recorded it.
func (m *merged) printStacks(w io.Writer) {
	fmt.Fprintf(w, "\nstacks (%d; the bot's files, outermost first, in parentheses the calls its goroutine was in before; below, what recorded it):\n", len(m.stacks))
	for _, k := range sortedKeys(m.stacks) {
		s := m.stacks[k]
		before := ""
		if len(s.before) > 0 {
			before = "(" + seqKey(s.before) + " →) "
		}
		note, kinds := "", map[string]bool{}
		for k := range s.kinds {
			kinds[k] = true
		}
		if incidental(kinds) {
			note = "  [only preempted or the runtime's: not counted]"
		}
		fmt.Fprintf(w, "  %s%s%s%s\n", before, seqKey(s.files), m.sometimes(s.runs), note)
		var seen []string
		for _, kind := range sortedKeys(s.kinds) {
			seen = append(seen, kind+strings.TrimPrefix(m.sometimes(s.kinds[kind]), " "))
		}
		fmt.Fprintf(w, "      %s\n", strings.Join(seen, "; "))
	}
}

// printUpCalls writes the up-calls, then the calls across, each in order.
func (m *merged) printUpCalls(w io.Writer) {
	ups := make([]upCall, 0, len(m.ups))
	for u := range m.ups {
		ups = append(ups, u)
	}
	slices.SortFunc(ups, func(a, b upCall) int { return strings.Compare(a.from+" "+a.to, b.from+" "+b.to) })
	for _, up := range []bool{true, false} {
		n := 0
		for _, u := range ups {
			if u.up == up {
				n++
			}
		}
		if up {
			fmt.Fprintf(w, "\nup-calls (%d; into a package that may import the caller's, by docs/architecture.md's table):\n", n)
		} else {
			fmt.Fprintf(w, "\ncalls across (%d; into a package the caller's may not import and that does not import it):\n", n)
		}
		for _, u := range ups {
			if u.up == up {
				fmt.Fprintf(w, "  %s → %s%s\n", u.from, u.to, m.sometimes(m.ups[u]))
			}
		}
	}
}

// countPkgs returns how many packages the files are in.
func countPkgs(files []string) int {
	pkgs := map[string]bool{}
	for _, f := range files {
		pkgs[path.Dir(f)] = true
	}
	return len(pkgs)
}
