package main

import "runtime/debug"

// The garbage collector's defaults, for a bot whose live heap is small
// (about 1 MB between bursts) and whose frames allocate a few kB each: at
// Go's GOGC=100 it collects several times a second under load, and every
// collection is CPU taken from replies (docs/throughput.md, "Figures:
// issue 24 item 8"). GOGC=400 lets the heap grow to five times what is live
// before it collects; the soft memory limit makes it collect sooner once
// the whole process nears 512 MiB, so a heap that is large for a real
// reason (decoded pictures, docs/pictures.md) stays under the bound of
// GOGC=100 at the defaults (docs/faults.md, "Hostile input").
const (
	defaultGCPercent   = 400
	defaultMemoryLimit = 512 << 20 // bytes
)

// tuneGC applies the defaults above where the environment does not set
// GOGC or GOMEMLIMIT; a variable that is set is the runtime's to read, as
// in any Go program (docs/operations.md).
func tuneGC(lookup func(string) (string, bool)) {
	if _, set := lookup("GOGC"); !set {
		debug.SetGCPercent(defaultGCPercent)
	}
	if _, set := lookup("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}
