package telemetry

import (
	"io"
	"strconv"
	"unicode/utf8"
)

// MaxLogLine is the most bytes one line of the bot's log takes: a longer
// record (a value nothing else bounded) is cut on a character boundary and
// ends with a mark saying how long it was. 16 KiB holds a panic's stack.
const MaxLogLine = 16 << 10

// lineCap is a writer of log lines, one a Write (as slog's handlers write
// them), that cuts each to max bytes.
type lineCap struct {
	w   io.Writer
	max int
}

// CapLines returns a writer that passes each line written to w, cut to
// MaxLogLine bytes: the bot's log handler writes through it, so no line it
// logs is longer, whatever a value holds. Only a line over the bound costs
// more than a length check.
func CapLines(w io.Writer) io.Writer { return lineCap{w: w, max: MaxLogLine} }

// Write writes p, cut when over the bound, and reports all of p written.
func (c lineCap) Write(p []byte) (int, error) {
	if len(p) <= c.max {
		return c.w.Write(p)
	}
	mark := []byte(" …(line cut: " + strconv.Itoa(len(p)) + " bytes)\n")
	n := c.max - len(mark)
	for n > 0 && !utf8.RuneStart(p[n]) {
		n--
	}
	out := append(append(make([]byte, 0, n+len(mark)), p[:n]...), mark...)
	if _, err := c.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
