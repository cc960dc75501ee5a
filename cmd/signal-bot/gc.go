package main

import "runtime/debug"

// defaultMemoryLimit is the soft memory limit the bot starts with: the
// collector runs sooner as the whole process nears it, so a heap that is
// large for a reason (decoded pictures, docs/pictures.md) stays within the
// bound tool/hostile checks. GOGC stays Go's own 100: at 400 the 4 MB
// webhook flood of docs/faults.md §8 peaked at 168–252 MiB against 105–129,
// about twice the bytes the webhook may hold (docs/throughput.md#gogc-memory-for-cpu
// gives the CPU it would save).
const defaultMemoryLimit = 512 << 20 // bytes

// tuneGC sets the memory limit above unless the environment sets
// GOMEMLIMIT; a variable that is set is the runtime's to read, as in any Go
// program (docs/operations.md#memory-and-the-garbage-collector).
func tuneGC(lookup func(string) (string, bool)) {
	if _, set := lookup("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}
