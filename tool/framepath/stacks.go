package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"golang.org/x/exp/trace"
)

// notBot are the module's packages under pkg/ that are not the bot's own:
// the simulator, the fake upstreams and the test harness.
var notBot = map[string]bool{"pkg/sim": true, "pkg/fakeup": true, "pkg/botest": true}

// frame is one frame of the bot's on a recorded stack: its package
// (pkg/bot), function, fully qualified, and source file as pkg/bot/intake.go,
// and the line it was at.
type frame struct {
	pkg, fn, file string
	line          uint64
}

// event is one point of a trace where a goroutine's stack was recorded and
// held a frame of the bot's: the goroutine, what happened ("wake",
// "block: select", "span start: frame"…), and the bot's frames of that
// stack, outermost first.
type event struct {
	g      trace.GoID
	kind   string
	frames []frame
}

// botFrames returns the bot's frames of a stack whose frames are given
// innermost first, as the tracer records them, outermost first. A frame is
// the bot's when its function is in a package under mod/pkg/ other than
// notBot.
func botFrames(mod string, stack []trace.StackFrame) []frame {
	var out []frame
	for i := len(stack) - 1; i >= 0; i-- {
		pkg, ok := botPackage(mod, stack[i].Func)
		if !ok {
			continue
		}
		out = append(out, frame{pkg: pkg, fn: stack[i].Func, file: pkg + "/" + path.Base(stack[i].File), line: stack[i].Line})
	}
	return out
}

// botPackage returns the package of fn relative to mod (pkg/bot for
// "signal-bot/pkg/bot.(*Bot).Handle.func1"), and whether it is the bot's.
func botPackage(mod, fn string) (string, bool) {
	rest, ok := strings.CutPrefix(fn, mod+"/")
	if !ok {
		return "", false
	}
	// The package path ends at its first dot: the module's directories
	// have none.
	pkg, _, ok := strings.Cut(rest, ".")
	if !ok || !strings.HasPrefix(pkg, "pkg/") || notBot[pkg] {
		return "", false
	}
	return pkg, true
}

// readEvents parses an execution trace and returns its events whose stack
// holds a frame of the bot: every event's stack and, for a goroutine's
// state transition, the transitioning goroutine's own stack too (the new
// goroutine's first frame at a creation). CPU samples are not read (none
// are taken).
func readEvents(mod string, data []byte) ([]event, error) {
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("read the execution trace: %w", err)
	}
	var out []event
	add := func(g trace.GoID, kind string, s trace.Stack) {
		if fs := botFrames(mod, framesOf(s)); len(fs) > 0 {
			out = append(out, event{g: g, kind: kind, frames: fs})
		}
	}
	for {
		e, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read the execution trace: %w", err)
		}
		kind := ""
		switch e.Kind() {
		case trace.EventStackSample, trace.EventSync, trace.EventMetric:
			continue
		case trace.EventTaskBegin:
			kind = "span start: " + e.Task().Type // the otel SDK opens a task per span
		case trace.EventTaskEnd:
			kind = "span end: " + e.Task().Type
		case trace.EventRangeBegin, trace.EventRangeActive, trace.EventRangeEnd:
			kind = runtimeKind + e.Range().Name // the GC's phases, where it interrupted
		case trace.EventStateTransition:
			st := e.StateTransition()
			kind = transitionKind(st)
			if st.Resource.Kind == trace.ResourceGoroutine && st.Resource.Goroutine() != e.Goroutine() {
				// Another goroutine's stack: the new one's at a creation,
				// each one's at the start of a generation.
				g := st.Resource.Goroutine()
				if st.Stack == e.Stack() {
					add(g, kind, st.Stack)
					continue
				}
				add(g, kind+" (its own stack)", st.Stack)
			}
		default:
			kind = e.Kind().String()
		}
		add(e.Goroutine(), kind, e.Stack())
	}
}

// preempted is the kind of a goroutine stopped to let another run, and
// runtimeKind begins that of a range of the runtime's (a GC phase begun or
// ended, a mark assist): a point wherever the goroutine happened to be, as a
// CPU sample is, so no point of the path.
const (
	preempted   = "preempted"
	runtimeKind = "runtime: "
)

// incidental says whether a stack recorded only as kinds is no point of the
// path: preempted (parked as "preempted" too, for the GC to scan its stack),
// or where the runtime interrupted (a GC phase, a mark assist's wait).
func incidental(kinds map[string]bool) bool {
	for k := range kinds {
		gc := strings.HasPrefix(k, runtimeKind) || strings.HasPrefix(k, "block: GC ")
		if k != preempted && k != "block: "+preempted && !gc {
			return false
		}
	}
	return true
}

// transitionKind names what a state transition of a goroutine did:
// "block: select", "wake", "create", "syscall"…
func transitionKind(st trace.StateTransition) string {
	if st.Resource.Kind != trace.ResourceGoroutine {
		return st.Resource.Kind.String() + " state"
	}
	from, to := st.Goroutine()
	switch {
	case from == trace.GoNotExist:
		return "create"
	case from == to || from == trace.GoUndetermined:
		return "status: " + to.String() // at the start of a generation
	case to == trace.GoWaiting:
		return "block: " + st.Reason
	case to == trace.GoSyscall:
		return "syscall"
	case from == trace.GoWaiting && to == trace.GoRunnable:
		return "wake"
	case from == trace.GoRunning && to == trace.GoRunnable:
		return preempted
	case to == trace.GoNotExist:
		return "exit"
	}
	return from.String() + " → " + to.String()
}

func framesOf(s trace.Stack) []trace.StackFrame {
	var fs []trace.StackFrame
	for f := range s.Frames() {
		fs = append(fs, f)
	}
	return fs
}
