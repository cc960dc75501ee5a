package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sethvargo/go-envconfig"
)

// syncBuffer is a strings.Builder safe for the sandbox's writers.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond every 20 ms for up to a minute (the suite runs under
// -race on shared cores).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

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

// The sandbox's screen, for !pomoc, a !cat from the picture pool and a flood
// of !x, shows only the first screen, the replies as they look in the chat
// and one short timing line per command; the log file beside the state holds
// the structured log, served lines and picture lines included.
func TestSandboxScreen(t *testing.T) {
	dir := t.TempDir()
	env := envconfig.MapLookuper(map[string]string{
		"HTTP_ADDR": "127.0.0.1:0", "STATE_PATH": filepath.Join(dir, "state.db"), "SANDBOX_LATENCY": "zero",
		"POOL_SIZE_CAT": "1", "POOL_SIZE_KOT": "0", // one picture to hit; no time spent on the rest
	})
	in, typed := io.Pipe()
	var screen, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, nil, stdio{env: env, in: in, out: &screen, errOut: &stderr}) }()
	defer func() {
		cancel()
		typed.Close()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	logPath := filepath.Join(dir, sandboxLogName)
	logText := func() string { b, _ := os.ReadFile(logPath); return string(b) }
	var base string
	waitFor(t, "the bot to run", func() bool {
		m := runningRE.FindStringSubmatch(logText())
		if m != nil {
			base = m[1]
		}
		return m != nil
	})
	metric := func(line string) func() bool {
		return func() bool { return strings.Contains(get(base+"/metrics"), line) }
	}
	waitFor(t, "a !cat picture in the pool", func() bool {
		return regexp.MustCompile(`(?m)^signal_bot_pool_ready\{command="cat"[^}]*\} [1-9]`).MatchString(get(base + "/metrics"))
	})
	say := func(line string) {
		if _, err := io.WriteString(typed, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	say("!pomoc")
	waitFor(t, "the !pomoc line", func() bool { return strings.Contains(screen.String(), "↳ pomoc ") })
	say("!cat")
	waitFor(t, "the !cat line", func() bool { return strings.Contains(screen.String(), "↳ cat ") })
	waitFor(t, "a pool hit", metric(`signal_bot_pool_hits_total{command="cat"`))
	say("!cat") // inside the cooldown: a ⏳ reaction, no text
	waitFor(t, "the second !cat's line", func() bool { return strings.Contains(screen.String(), "↳ cat cooldown ") })
	say("@bot !ja") // the mention's placeholder first, as Signal writes "@bot"
	waitFor(t, "the !ja line", func() bool { return strings.Contains(screen.String(), "↳ ja ") })
	const flood = 30
	for range flood {
		say("!x")
	}
	waitFor(t, "the flood to be handled", func() bool {
		var h struct {
			Accepted      int `json:"accepted"`
			DroppedSender int `json:"dropped_sender_queue"`
			Active        int `json:"active"`
			QueueDepth    int `json:"queue_depth"`
		}
		return json.Unmarshal([]byte(get(base+"/healthz")), &h) == nil &&
			h.Accepted+h.DroppedSender == 4+flood && h.Active == 0 && h.QueueDepth == 0
	})
	checkScreen(t, screen.String(), logPath)
	checkLog(t, logText())
	if stderr.String() != "" {
		t.Errorf("stderr = %q; want nothing (the log goes to %s)", stderr.String(), logPath)
	}
}

// checkScreen holds the screen to the first screen, replies and short lines.
func checkScreen(t *testing.T, out, logPath string) {
	t.Helper()
	head, body, ok := strings.Cut(out, "Run signal-bot -h for every setting.\n\n")
	if !ok || !strings.Contains(head, "The bot's log goes to "+logPath) {
		t.Fatalf("the first screen does not say where the log is (%s):\n%s", logPath, out)
	}
	var replies, timings, quotes, reactions []string
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "  ↪ replying to "): // the quote above a reply in the group
			quotes = append(quotes, l)
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
	if want := "bot reacts ⏳ in testbot to " + sandboxUser + "'s message"; len(reactions) != 1 || reactions[0] != want {
		t.Errorf("reaction lines %q; want one, %q", reactions, want)
	}
	// Every reply in the test group quotes the line that asked (QUOTE_REPLIES=groups).
	quoteRE := regexp.MustCompile(`^  ↪ replying to ` + regexp.QuoteMeta(sandboxUser) + `: (\x{FFFC} )?!(pomoc|cat|x|ja)$`)
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
