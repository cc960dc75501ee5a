package telemetry

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"
)

// A line over MaxLogLine is cut on a character boundary and marked with its
// length; a shorter one passes as it is; each stays one line.
func TestCapLines(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(CapLines(&buf), nil))
	log.Info("short", "v", "x")
	log.Info("scheduled posts", "slots", strings.Repeat("ż", 200_000)) // 400 kB of two-byte characters
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `msg=short v=x`) {
		t.Fatalf("lines = %d, the first %.80q; want 2, the short one whole", len(lines), lines[0])
	}
	long := lines[1] + "\n"
	if len(long) > MaxLogLine || !utf8.ValidString(long) || !strings.Contains(long, "(line cut: ") || !strings.HasPrefix(long, "time=") {
		t.Errorf("the long line: %d bytes, valid UTF-8 %v, ends %q; want at most %d, cut on a character, marked",
			len(long), utf8.ValidString(long), long[len(long)-40:], MaxLogLine)
	}
}
