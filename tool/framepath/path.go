package main

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"golang.org/x/exp/trace"
)

// frameStack is a stack the frame travelled along, as the bot's files
// outermost first: before are the calls its goroutine was already in when
// the frame's window began (the loop that received the frame, and what
// started that loop), files the rest.
type frameStack struct {
	before, files []string
	kinds         map[string]bool
}

// seqKey names a sequence of files: joined with " → ".
func seqKey(files []string) string { return strings.Join(files, " → ") }

// framesKey names a stack by its frames and their lines.
func framesKey(fs []frame) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s:%d;", f.fn, f.line)
	}
	return b.String()
}

// fileSeq returns the files of fs in order, a file that holds several
// frames in a row once.
func fileSeq(fs []frame) []string {
	var files []string
	for _, f := range fs {
		if n := len(files); n == 0 || files[n-1] != f.file {
			files = append(files, f.file)
		}
	}
	return files
}

// stackKey names a frame's stack by its files, then the files before; in
// order, the stacks sort by their files.
func stackKey(before, files []string) string { return seqKey(files) + "\x00" + seqKey(before) }

// frameStacks returns the frame's stacks, keyed by stackKey:
// the stacks of the frame's window but those recorded as well in the idle
// window (the same frames at the same lines: background loops, goroutines
// parked as they were), each without its outer frames that stand as one of
// the same goroutine's stacks stood in the idle window (a call it was in
// before the frame came). A stack left with no frame is dropped.
func frameStacks(idle, window []event) map[string]*frameStack {
	idleKeys := map[string]bool{}
	idleOf := map[trace.GoID][][]frame{}
	for _, e := range idle {
		idleKeys[framesKey(e.frames)] = true
		idleOf[e.g] = append(idleOf[e.g], e.frames)
	}
	out := map[string]*frameStack{}
	for _, e := range window {
		if idleKeys[framesKey(e.frames)] {
			continue
		}
		n := 0
		for _, fs := range idleOf[e.g] {
			n = max(n, commonPrefix(fs, e.frames))
		}
		if n == len(e.frames) {
			continue
		}
		before, files := fileSeq(e.frames[:n]), fileSeq(e.frames[n:])
		k := stackKey(before, files)
		if out[k] == nil {
			out[k] = &frameStack{before: before, files: files, kinds: map[string]bool{}}
		}
		out[k].kinds[e.kind] = true
	}
	return out
}

// commonPrefix returns how many outer frames a and b share, at the same lines.
func commonPrefix(a, b []frame) int {
	n := 0
	for n < len(a) && n < len(b) && a[n].fn == b[n].fn && a[n].line == b[n].line {
		n++
	}
	return n
}

// upCall is a call from one of the bot's files into a package that the
// caller's package may not import: through a func value or an interface it
// was handed. It is up when the callee's package may import the caller's,
// directly or through others (the call climbs back to a layer above, as
// the Intake does); otherwise it goes across, to a package neither above
// nor below (net/http calling the transport a client was given).
type upCall struct {
	from, to string
	up       bool
}

// upCalls returns the calls of a stack's files, outermost first, from one
// package into another that allowed (docs/architecture.md's table: each
// package with the packages it may import) does not list for it.
func upCalls(files []string, allowed map[string]map[string]bool) []upCall {
	var out []upCall
	for i := 1; i < len(files); i++ {
		from, to := path.Dir(files[i-1]), path.Dir(files[i])
		if from != to && !allowed[from][to] {
			out = append(out, upCall{files[i-1], files[i], reaches(allowed, to, from)})
		}
	}
	return out
}

// reaches tells whether package a may import b, directly or through the
// packages it may import.
func reaches(allowed map[string]map[string]bool, a, b string) bool {
	seen := map[string]bool{a: true}
	next := []string{a}
	for len(next) > 0 {
		p := next[len(next)-1]
		next = next[:len(next)-1]
		for q := range allowed[p] {
			if q == b {
				return true
			}
			if !seen[q] {
				seen[q] = true
				next = append(next, q)
			}
		}
	}
	return false
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
