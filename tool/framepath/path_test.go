package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/exp/trace"

	"signal-bot/internal/archtable"
)

func TestBotFrames(t *testing.T) {
	sf := func(fn, file string, line uint64) trace.StackFrame {
		return trace.StackFrame{Func: fn, File: file, Line: line}
	}
	tests := []struct {
		name  string
		stack []trace.StackFrame // innermost first, as recorded
		want  []string           // file:line, outermost first
	}{
		{
			name: "the worker at the send, runtime and library frames left out",
			stack: []trace.StackFrame{
				sf("runtime.gopark", "/go/src/runtime/proc.go", 1),
				sf("net/http.(*persistConn).roundTrip", "/go/src/net/http/transport.go", 2),
				sf("signal-bot/pkg/signalapi.(*Client).Send", "/w/pkg/signalapi/send.go", 40),
				sf("signal-bot/pkg/bot.rememberSends.Send", "/w/pkg/bot/ownsends.go", 202),
				sf("signal-bot/pkg/bot.(*Bot).send", "/w/pkg/bot/react.go", 60),
				sf("signal-bot/pkg/pipeline.(*Pipeline[...]).task", "/w/pkg/pipeline/slot.go", 51),
				sf("signal-bot/pkg/pipeline.(*workers[...]).run", "/w/pkg/pipeline/slot.go", 89),
			},
			want: []string{"pkg/pipeline/slot.go:89", "pkg/pipeline/slot.go:51", "pkg/bot/react.go:60", "pkg/bot/ownsends.go:202", "pkg/signalapi/send.go:40"},
		},
		{
			name: "closures and generics keep their package",
			stack: []trace.StackFrame{
				sf("signal-bot/pkg/pipeline.(*Pipeline[...]).Run.func1", "/w/pkg/pipeline/slot.go", 19),
				sf("signal-bot/pkg/app.(*App).Run.func1", "/w/pkg/app/app.go", 144),
			},
			want: []string{"pkg/app/app.go:144", "pkg/pipeline/slot.go:19"},
		},
		{
			name: "the simulator, the harness, the tools and other modules are not the bot",
			stack: []trace.StackFrame{
				sf("signal-bot/pkg/sim.(*Sim).offer", "/w/pkg/sim/sim.go", 1),
				sf("signal-bot/pkg/fakeup.(*Server).Start.func1", "/w/pkg/fakeup/fakeup.go", 2),
				sf("signal-bot/pkg/botest.Start", "/w/pkg/botest/botest.go", 3),
				sf("main.(*stack).pomoc", "/w/tool/framepath/stack.go", 4),
				sf("signal-bot/tool/internal/simstack.Start", "/w/tool/internal/simstack/simstack.go", 5),
				sf("signal-bot-other/pkg/bot.Handle", "/x/pkg/bot/handle.go", 6),
				sf("signal-bot/pkg/simple.F", "/w/pkg/simple/simple.go", 7),
			},
			want: []string{"pkg/simple/simple.go:7"},
		},
		{name: "no frame", stack: nil, want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range botFrames("signal-bot", tt.stack) {
				got = append(got, fmt.Sprintf("%s:%d", f.file, f.line))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("botFrames = %q, want %q", got, tt.want)
			}
		})
	}
}

// fr is a frame of file:line with a function named after both.
func fr(fileLine string) frame {
	file, line, _ := strings.Cut(fileLine, ":")
	var n uint64
	fmt.Sscan(line, &n)
	return frame{pkg: file[:strings.LastIndex(file, "/")], fn: "f " + file, file: file, line: n}
}

func frs(fileLines ...string) []frame {
	var fs []frame
	for _, fl := range fileLines {
		fs = append(fs, fr(fl))
	}
	return fs
}

func TestFrameStacks(t *testing.T) {
	const reader, sched, worker, writer = 24, 21, 32, 14
	reading := frs("pkg/app/guard.go:24", "pkg/app/serve.go:116", "pkg/signalapi/receive.go:39", "pkg/signalapi/receive.go:118")
	waiting := frs("pkg/app/app.go:144", "pkg/bot/intake.go:177", "pkg/pipeline/slot.go:20")
	idle := []event{
		{g: reader, kind: "block: network", frames: reading},
		{g: sched, kind: "status: Waiting", frames: waiting},
		{g: writer, kind: "block: select", frames: frs("pkg/store/writer.go:187")},
	}
	tests := []struct {
		name   string
		window []event
		want   []string // before | files: kinds
	}{
		{
			name: "the reader's push: the loop's callers are before, the loop's file stays",
			window: []event{{g: reader, kind: "wake", frames: frs("pkg/app/guard.go:24", "pkg/app/serve.go:116",
				"pkg/signalapi/receive.go:39", "pkg/signalapi/receive.go:127", "pkg/bot/intake.go:83", "pkg/pipeline/fifo.go:39")}},
			want: []string{"pkg/app/guard.go → pkg/app/serve.go → pkg/signalapi/receive.go | pkg/signalapi/receive.go → pkg/bot/intake.go → pkg/pipeline/fifo.go: wake"},
		},
		{
			name:   "a stack as it stood in the idle window, on any goroutine, is dropped",
			window: []event{{g: reader, kind: "block: network", frames: reading}, {g: 99, kind: "status: Waiting", frames: waiting}},
		},
		{
			name:   "the scheduler handing over: the same files as its idle wait, another line",
			window: []event{{g: sched, kind: "create", frames: frs("pkg/app/app.go:144", "pkg/bot/intake.go:177", "pkg/pipeline/slot.go:33")}},
			want:   []string{"pkg/app/app.go → pkg/bot/intake.go | pkg/pipeline/slot.go: create"},
		},
		{
			name: "a new goroutine has nothing before; one stack, the kinds joined",
			window: []event{
				{g: worker, kind: "block: chan receive", frames: frs("pkg/pipeline/slot.go:89", "pkg/bot/intake.go:136", "pkg/signalapi/send.go:40")},
				{g: worker, kind: "wake", frames: frs("pkg/pipeline/slot.go:89", "pkg/bot/intake.go:136", "pkg/signalapi/send.go:41")},
			},
			want: []string{" | pkg/pipeline/slot.go → pkg/bot/intake.go → pkg/signalapi/send.go: block: chan receive, wake"},
		},
		{
			name:   "the idle stack of another goroutine does not trim",
			window: []event{{g: worker, kind: "wake", frames: frs("pkg/app/guard.go:24", "pkg/app/serve.go:116", "pkg/bot/intake.go:1")}},
			want:   []string{" | pkg/app/guard.go → pkg/app/serve.go → pkg/bot/intake.go: wake"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			stacks := frameStacks(idle, tt.window)
			for _, k := range sortedKeys(stacks) {
				s := stacks[k]
				got = append(got, seqKey(s.before)+" | "+seqKey(s.files)+": "+strings.Join(sortedKeys(s.kinds), ", "))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("frameStacks =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestUpCalls(t *testing.T) {
	allowed := map[string]map[string]bool{
		"pkg/app":       {"pkg/bot": true},
		"pkg/bot":       {"pkg/pipeline": true, "pkg/signalapi": true, "pkg/telemetry": true},
		"pkg/metrics":   {"pkg/telemetry": true},
		"pkg/telemetry": {},
		"pkg/pipeline":  {},
		"pkg/signalapi": {},
	}
	tests := []struct {
		name  string
		files []string
		want  []upCall
	}{
		{name: "down only", files: []string{"pkg/bot/intake.go", "pkg/bot/handle.go", "pkg/signalapi/send.go"}},
		{
			name:  "the worker: the task fn up, then down",
			files: []string{"pkg/pipeline/slot.go", "pkg/bot/intake.go", "pkg/bot/handle.go", "pkg/signalapi/send.go", "pkg/telemetry/transport.go"},
			want:  []upCall{{"pkg/pipeline/slot.go", "pkg/bot/intake.go", true}, {"pkg/signalapi/send.go", "pkg/telemetry/transport.go", false}},
		},
		{
			name:  "a callback into a package the table allows the other way",
			files: []string{"pkg/bot/intake.go", "pkg/telemetry/owntime.go", "pkg/metrics/metrics.go", "pkg/telemetry/log.go"},
			want:  []upCall{{"pkg/telemetry/owntime.go", "pkg/metrics/metrics.go", true}},
		},
		{
			name:  "a package without a row may import nothing",
			files: []string{"pkg/new/a.go", "pkg/bot/intake.go"},
			want:  []upCall{{"pkg/new/a.go", "pkg/bot/intake.go", false}},
		},
		{name: "one file", files: []string{"pkg/store/writer.go"}},
		{
			name:  "up, through a package between",
			files: []string{"pkg/telemetry/owntime.go", "pkg/app/app.go"},
			want:  []upCall{{"pkg/telemetry/owntime.go", "pkg/app/app.go", true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := upCalls(tt.files, allowed); !slices.Equal(got, tt.want) {
				t.Errorf("upCalls = %v, want %v", got, tt.want)
			}
		})
	}
}

// readAllowed turns the table archtable reads into sets, every name taken.
func TestReadAllowed(t *testing.T) {
	page := func(rows ...string) string {
		return "# T\n\n## The frame path\n\n| package | imports |\n|---|---|\n| `pkg/z` | `q` |\n\n" +
			archtable.Heading + "\n\nIntro.\n\n| package | does | imports (of the bot's packages) |\n|---|---|---|\n" +
			strings.Join(rows, "\n") + "\n\nRules.\n\n## Next\n\n| package | imports |\n|---|---|\n| `pkg/y` | `a` |\n"
	}
	tests := []struct {
		name    string
		page    string
		want    map[string]map[string]bool
		wantErr string
	}{
		{
			name: "names, commentary, none and two packages in a row",
			page: page("| `pkg/a` | does (with `b`) | `b` (its `Stats` on `/healthz`), `c`; `sim` for the sandbox |",
				"| `pkg/b` | x | — |", "| `tool/x`, `tool/y` | both | `a` (the `T` (nested)) |"),
			want: map[string]map[string]bool{
				"pkg/a": {"pkg/b": true, "pkg/c": true, "pkg/sim": true}, "pkg/b": {},
				"tool/x": {"pkg/a": true}, "tool/y": {"pkg/a": true},
			},
		},
		{name: "no imports column", page: strings.Replace(page("| `pkg/a` | x | — |"), "imports (of", "deps (of", 1), wantErr: `no "package" or "imports" column`},
		{name: "no table", page: "# T\n\n" + archtable.Heading + "\n\nNone.\n", wantErr: "no table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "architecture.md")
			if err := os.WriteFile(path, []byte(tt.page), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := readAllowed(path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("readAllowed = %v, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !maps.EqualFunc(got, tt.want, maps.Equal) {
				t.Fatalf("readAllowed = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	type stack struct {
		files []string
		kinds []string
	}
	recv := []string{"pkg/signalapi/receive.go", "pkg/bot/intake.go"}
	runs := [][]stack{
		{{recv, []string{"wake"}}},
		{{recv, []string{"wake", preempted}}},
		{{recv, []string{"wake"}}, {[]string{"pkg/bot/recent.go", "pkg/telemetry/await.go"}, []string{preempted}},
			{[]string{"pkg/bot/handle.go", "pkg/signalapi/frame.go"}, []string{runtimeKind + "GC concurrent mark phase", preempted}},
			{[]string{"pkg/bot/handle.go", "pkg/bot/senderhash.go"}, []string{"block: " + preempted}},
			{[]string{"pkg/bot/gate.go", "pkg/outbound/gate.go"}, []string{"block: GC mark assist wait for work"}},
			{[]string{"pkg/bot/intake.go", "pkg/store/writer.go"}, []string{"wake"}}},
	}
	allowed := map[string]map[string]bool{"pkg/bot": {"pkg/store": true, "pkg/signalapi": true}}
	m := &merged{stacks: map[string]*mergedStack{}, files: map[string]int{}, ups: map[upCall]int{}}
	for _, r := range runs {
		run := map[string]*frameStack{}
		for _, s := range r {
			fs := &frameStack{files: s.files, kinds: map[string]bool{}}
			for _, k := range s.kinds {
				fs.kinds[k] = true
			}
			run[stackKey(nil, s.files)] = fs
		}
		m.merge(run, allowed)
	}
	wantFiles := map[string]int{"pkg/signalapi/receive.go": 3, "pkg/bot/intake.go": 3, "pkg/store/writer.go": 1}
	wantUps := map[upCall]int{{"pkg/signalapi/receive.go", "pkg/bot/intake.go", true}: 3}
	if m.runs != 3 || !maps.Equal(m.files, wantFiles) || !maps.Equal(m.ups, wantUps) {
		t.Errorf("merge: %d runs, files %v, up-calls %v; want 3, %v, %v", m.runs, m.files, m.ups, wantFiles, wantUps)
	}
	for file, want := range map[string]string{"pkg/store/writer.go": "  (sometimes: 1 of 3 runs)", "pkg/bot/intake.go": ""} {
		if got := m.sometimes(m.files[file]); got != want {
			t.Errorf("sometimes of %s = %q, want %q", file, got, want)
		}
	}
}
