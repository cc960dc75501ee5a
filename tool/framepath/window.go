package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/trace"
)

// traced runs fn under the execution tracer and writes the trace to
// dir/name: the stacks of the goroutines at each point they blocked, woke
// another, were created, entered a syscall or started or ended a span
// (the otel SDK opens a runtime/trace task per span while tracing is on).
func traced(dir, name string, fn func() error) error {
	var buf bytes.Buffer
	if err := trace.Start(&buf); err != nil {
		return fmt.Errorf("start the execution tracer: %w", err)
	}
	err := fn()
	trace.Stop()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644)
}
