package main

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// botLog reads the bot's standard error: its log lines and, with
// GODEBUG=schedtrace=1000,scheddetail=1, the Go runtime's scheduler trace,
// which lists every goroutine once a second.
type botLog struct {
	urlc chan string // the HTTP base, once

	mu      sync.Mutex
	own     []float64 // own_ms of every served line
	maxG    int       // most live goroutines in one scheduler trace
	curG    int       // live goroutines counted in the trace being read
	samples int       // scheduler traces read
	last    []string  // the latest log lines that are not the trace
}

func newBotLog() *botLog { return &botLog{urlc: make(chan string, 1)} }

var (
	startLine = regexp.MustCompile(`msg="signal-bot running".* http=(http://\S+)`)
	ownField  = regexp.MustCompile(` own_ms=([0-9.]+)`)
	gLine     = regexp.MustCompile(`^\s+G\d+: status=(\d+)\(`)
)

// consume reads r to its end.
func (l *botLog) consume(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l.line(sc.Text())
	}
	l.mu.Lock()
	l.endSample()
	l.mu.Unlock()
}

func (l *botLog) line(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// The runtime writes a trace line in pieces, so a log line (one write)
	// may land after the start of one and share its line: look for the
	// served line anywhere first, then at what the line starts with.
	if i := strings.Index(s, "msg=served "); i >= 0 {
		if m := ownField.FindStringSubmatch(s[i:]); m != nil {
			if v, err := strconv.ParseFloat(m[1], 64); err == nil {
				l.own = append(l.own, v)
			}
		}
	}
	if m := gLine.FindStringSubmatch(s); m != nil {
		if st, err := strconv.Atoi(m[1]); err == nil && live(st) {
			l.curG++
		}
		return
	}
	switch {
	case strings.HasPrefix(s, "SCHED "):
		l.endSample()
		l.samples++
		return
	case strings.HasPrefix(s, "  P") || strings.HasPrefix(s, "  M") || strings.Contains(s, "msg=served "):
		return
	}
	if m := startLine.FindStringSubmatch(s); m != nil {
		select {
		case l.urlc <- m[1]:
		default:
		}
	}
	l.last = append(l.last, s)
	if len(l.last) > 40 {
		l.last = l.last[1:]
	}
}

// endSample closes the scheduler trace being counted; l.mu is held.
func (l *botLog) endSample() {
	l.maxG = max(l.maxG, l.curG)
	l.curG = 0
}

// live tells a goroutine that exists from a dead one kept for reuse: the
// runtime's _Grunnable, _Grunning, _Gsyscall, _Gwaiting, _Gcopystack and
// _Gpreempted, with or without the _Gscan bit.
func live(status int) bool {
	switch status &^ 0x1000 {
	case 1, 2, 3, 4, 8, 9:
		return true
	}
	return false
}

// ownMS returns a copy of the own_ms values read so far.
func (l *botLog) ownMS() []float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]float64(nil), l.own...)
}

// goroutines returns the most live goroutines seen in one trace and how
// many traces were read.
func (l *botLog) goroutines() (maxG, samples int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return max(l.maxG, l.curG), l.samples
}

// tail returns the latest log lines, for errors.
func (l *botLog) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.last, "\n")
}
