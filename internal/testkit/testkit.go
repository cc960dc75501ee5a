// Package testkit holds the helpers the tests of every package share, for
// tests inside a package as well as beside it: it imports no package of the
// bot, so any package's own tests may use it without a cycle. What needs the
// whole bot (the simulator, the harness) is pkg/botest's.
package testkit

import (
	"bytes"
	"os"
	"sync"
	"testing"
	"time"
)

// SyncBuffer is a bytes.Buffer safe for concurrent writers: a log sink that
// the code under test writes while the test reads it.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// WaitTimeout bounds every wait of WaitFor: the suite runs under -race on
// shared cores, so a wait that takes milliseconds alone may take seconds.
const WaitTimeout = time.Minute

// WaitFor polls cond until it holds and fails the test if it does not
// within WaitTimeout. It polls at once, then after a millisecond, backing
// off to every 5 ms, so a quick event costs no fixed sleep and a slow one
// little CPU.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for pause := time.Millisecond; !cond(); pause = min(2*pause, 5*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", WaitTimeout, what)
		}
		time.Sleep(pause)
	}
}

// JaegerURLs finds the real Jaeger that scripts/test.sh starts
// (otel/jaeger.sh): its OTLP/HTTP and query API base URLs. Outside CI,
// without one, the test is skipped; in CI it must be there.
func JaegerURLs(t testing.TB) (otlp, query string) {
	t.Helper()
	otlp, query = os.Getenv("SIGNAL_BOT_OTLP"), os.Getenv("SIGNAL_BOT_JAEGER")
	if otlp == "" || query == "" {
		if os.Getenv("CI") == "" { // outside CI a plain go test may run without Jaeger
			t.Skip("no Jaeger outside CI: run scripts/test.sh, or otel/jaeger.sh start and set SIGNAL_BOT_OTLP=http://127.0.0.1:4318 SIGNAL_BOT_JAEGER=http://127.0.0.1:16686")
		}
		t.Fatal("CI run without SIGNAL_BOT_OTLP and SIGNAL_BOT_JAEGER: scripts/test.sh starts Jaeger and sets them")
	}
	return otlp, query
}
