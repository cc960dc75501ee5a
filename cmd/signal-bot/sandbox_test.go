package main

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"signal-bot/internal/testkit"

	"github.com/sethvargo/go-envconfig"
)

// get reads url's body, "" on any error.
func get(url string) string {
	res, err := http.Get(url)
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

var runningRE = regexp.MustCompile(`msg="signal-bot running" .*http=(http://\S+)`)

// sandboxRun is the sandbox run in-process by run, driven through its stdin.
type sandboxRun struct {
	t       *testing.T
	typed   *io.PipeWriter
	screen  *testkit.SyncBuffer
	stderr  *testkit.SyncBuffer
	logPath string
	base    string // the bot's endpoints, http://…
}

// runSandbox runs the sandbox with env (STATE_PATH in a temporary folder and
// SANDBOX_LATENCY=zero unless env sets them) until the test ends, and waits
// for the bot to run.
func runSandbox(t *testing.T, env map[string]string) *sandboxRun {
	t.Helper()
	dir := t.TempDir()
	vars := map[string]string{"STATE_PATH": filepath.Join(dir, "state.db"), "SANDBOX_LATENCY": "zero"}
	maps.Copy(vars, env)
	in, typed := io.Pipe()
	sr := &sandboxRun{t: t, typed: typed, screen: &testkit.SyncBuffer{}, stderr: &testkit.SyncBuffer{}, logPath: filepath.Join(dir, sandboxLogName)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, nil, stdio{env: envconfig.MapLookuper(vars), in: in, out: sr.screen, errOut: sr.stderr})
	}()
	t.Cleanup(func() {
		cancel()
		typed.Close()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	testkit.WaitFor(t, "the bot to run", func() bool {
		m := runningRE.FindStringSubmatch(sr.log())
		if m != nil {
			sr.base = m[1]
		}
		return m != nil
	})
	return sr
}

// log is the sandbox's log file so far.
func (sr *sandboxRun) log() string { b, _ := os.ReadFile(sr.logPath); return string(b) }

// say types line.
func (sr *sandboxRun) say(line string) {
	sr.t.Helper()
	if _, err := io.WriteString(sr.typed, line+"\n"); err != nil {
		sr.t.Fatal(err)
	}
}

// waitScreen waits for the screen to hold want.
func (sr *sandboxRun) waitScreen(want string) {
	sr.t.Helper()
	testkit.WaitFor(sr.t, "the screen to show "+strconv.Quote(want), func() bool { return strings.Contains(sr.screen.String(), want) })
}

// metric waits for the /metrics line that starts with line.
func (sr *sandboxRun) metric(line string) {
	sr.t.Helper()
	testkit.WaitFor(sr.t, line, func() bool { return strings.Contains(get(sr.base+"/metrics"), line) })
}

// The sandbox's screen, for !pomoc, a !cat from the picture pool and a flood
// of !x, shows only the first screen, the echo of each typed line, the
// replies as they look in the chat and one short timing line per command;
// the log file beside the state holds the structured log, served lines and
// picture lines included.
func TestSandboxScreen(t *testing.T) {
	sr := runSandbox(t, map[string]string{
		"HTTP_ADDR":     "127.0.0.1:0",
		"POOL_SIZE_CAT": "1", "POOL_SIZE_KOT": "0", // one picture to hit; no time spent on the rest
	})
	testkit.WaitFor(t, "a !cat picture in the pool", func() bool {
		return regexp.MustCompile(`(?m)^signal_bot_pool_ready\{command="cat"[^}]*\} [1-9]`).MatchString(get(sr.base + "/metrics"))
	})
	sr.say("!pomoc")
	sr.waitScreen("↳ pomoc ")
	sr.say("!cat")
	sr.waitScreen("↳ cat ")
	sr.metric(`signal_bot_pool_hits_total{command="cat"`)
	sr.say("!cat") // inside the cooldown: a ⏳ reaction, no text
	sr.waitScreen("↳ cat cooldown ")
	sr.say("@bot !ja") // the mention's placeholder first, as Signal writes "@bot"
	sr.waitScreen("↳ ja ")
	const flood = 30
	for range flood {
		sr.say("!x")
	}
	testkit.WaitFor(t, "the flood to be handled", func() bool {
		var h struct {
			Accepted      int `json:"accepted"`
			DroppedSender int `json:"dropped_sender_queue"`
			Active        int `json:"active"`
			QueueDepth    int `json:"queue_depth"`
		}
		return json.Unmarshal([]byte(get(sr.base+"/healthz")), &h) == nil &&
			h.Accepted+h.DroppedSender == 4+flood && h.Active == 0 && h.QueueDepth == 0
	})
	checkScreen(t, sr.screen.String(), sr.logPath)
	checkLog(t, sr.log())
	if sr.stderr.String() != "" {
		t.Errorf("stderr = %q; want nothing (the log goes to %s)", sr.stderr.String(), sr.logPath)
	}
}

// checkScreen holds the screen to the first screen, replies and short lines.
func checkScreen(t *testing.T, out, logPath string) {
	t.Helper()
	head, body, ok := strings.Cut(out, firstScreenEnd)
	if !ok || !strings.Contains(head, "log: "+logPath) {
		t.Fatalf("the first screen does not say where the log is (%s):\n%s", logPath, out)
	}
	var replies, timings, quotes, reactions []string
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "  ↪ replying to "): // the quote above a reply in the group
			quotes = append(quotes, l)
		case strings.HasPrefix(l, "admin → testbot: "): // the echo of a typed line
		case strings.HasPrefix(l, "bot → testbot: "):
			replies = append(replies, l)
		case strings.HasPrefix(l, "bot reacts "):
			reactions = append(reactions, l)
		case strings.HasPrefix(l, "  ↳ "):
			timings = append(timings, l)
			if len(timings) > len(replies)+len(reactions) {
				t.Errorf("timing line %q before its reply", l)
			}
		case strings.HasPrefix(l, "    "): // a reply's next line, or its picture
		default:
			t.Errorf("screen line %q is neither a reply nor a timing line", l)
		}
	}
	// !pomoc, !cat, !ja and one hint for the flood of !x: the refusal goes to a
	// sender once per window, the other !x get no reply and no line; the
	// second !cat gets a ⏳ on the typist's message.
	if len(replies) != 4 || len(timings) != 5 {
		t.Errorf("%d replies and %d timing lines; want 4 and 5:\n%s", len(replies), len(timings), body)
	}
	if want := "bot reacts ⏳ in testbot to admin " + sandboxUser + "'s message"; len(reactions) != 1 || reactions[0] != want {
		t.Errorf("reaction lines %q; want one, %q", reactions, want)
	}
	// Every reply in the test group quotes the line that asked (QUOTE_REPLIES=groups).
	// The mention shows as the bot's name (quote_mentions), not as U+FFFC.
	quoteRE := regexp.MustCompile(`^  ↪ replying to admin ` + regexp.QuoteMeta(sandboxUser) + `: (@bot )?!(pomoc|cat|x|ja)$`)
	if len(quotes) != len(replies) {
		t.Errorf("%d quote lines for %d replies; want one each:\n%s", len(quotes), len(replies), body)
	}
	for _, l := range quotes {
		if !quoteRE.MatchString(l) {
			t.Errorf("quote line %q; want %s", l, quoteRE)
		}
	}
	timingRE := regexp.MustCompile(`^  ↳ (pomoc|cat|cat cooldown|ja|unknown)  own_ms=\d+\.\d{3}  round_trip_ms=\d+\.\d{3}$`)
	for _, l := range timings {
		if !timingRE.MatchString(l) {
			t.Errorf("timing line %q; want %s", l, timingRE)
		}
	}
	if !strings.Contains(body, "    [picture ") {
		t.Errorf("no picture under the !cat reply:\n%s", body)
	}
	if strings.Contains(body, "level=") || strings.Contains(body, "trace_id") {
		t.Errorf("log lines on the screen:\n%s", body)
	}
}

// checkLog looks for what the screen leaves out in the log file.
func checkLog(t *testing.T, log string) {
	t.Helper()
	for _, want := range []string{`msg="signal-cli-rest-api found"`, `msg="picture prepared"`, `msg="picture sent"`,
		"msg=served command=pomoc", "msg=served command=cat", "msg=served command=unknown"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log file lacks %s", want)
		}
	}
}
