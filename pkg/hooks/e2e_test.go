package hooks_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// call is one request a hook received.
type call struct {
	path   string
	header http.Header
	body   string
}

// hookServer is the operator's service on loopback: each path answers as
// answers says, and every request is kept.
type hookServer struct {
	*httptest.Server
	mu    sync.Mutex
	calls []call
}

func newHookServer(t *testing.T, answers map[string]http.HandlerFunc) *hookServer {
	t.Helper()
	s := &hookServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.calls = append(s.calls, call{r.URL.Path, r.Header.Clone(), string(b)})
		s.mu.Unlock()
		if a, ok := answers[r.URL.Path]; ok {
			a(w, r)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *hookServer) seen() []call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]call(nil), s.calls...)
}

// commandsFile writes a COMMANDS_FILE of hook commands (name → URL), each
// without a cooldown, and of one text command.
func commandsFile(t *testing.T, hooks map[string]string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("[[command]]\nname = \"zasady\"\naliases = [\"rules\"]\nsummary = { pl = \"zasady grupy\", en = \"the rules\" }\ntext = \"Bądźcie dla siebie mili.\"\nscope = \"groups\"\n")
	for name, url := range hooks {
		fmt.Fprintf(&b, "\n[[command]]\nname = %q\nsummary = { pl = \"hak %s\" }\nhook = %q\ntimeout = \"1s\"\ncooldown = \"0s\"\nsecret = \"0123456789abcdef\"\n", name, name, url)
	}
	path := filepath.Join(t.TempDir(), "commands.toml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, body)
	}
}

// A hook that takes 200 ms: the reply is its text, upstream_ms holds its
// time and own_ms does not (the same order as !pomoc's in the same run), and
// the hook got the frame's trace: its traceparent's trace id is the block's.
// The hook never sees the sender's number or uuid. A file's text command
// answers where its scope says.
func TestHookThroughTheBot(t *testing.T) {
	hook := newHookServer(t, map[string]http.HandlerFunc{"/pogoda": func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		text("Słonecznie, 21°C")(w, r)
	}})
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COMMANDS_FILE": commandsFile(t, map[string]string{"pogoda": hook.URL + "/pogoda"})})
	h.Start()
	var pomocOwn float64
	for range 3 {
		pomocOwn = max(pomocOwn, h.Selftest("!pomoc").OwnMS)
	}
	b := h.Selftest("!pogoda Kraków")
	if b.Command != "pogoda" || b.Outcome != "served" {
		t.Fatalf("block %+v; want !pogoda served", b)
	}
	if b.UpstreamMS < 200 {
		t.Errorf("upstream_ms = %.3f; want ≥ 200 (the hook's sleep)", b.UpstreamMS)
	}
	if b.OwnMS > max(50, 10*pomocOwn) {
		t.Errorf("own_ms = %.3f; want the order of !pomoc's (%.3f), the hook's time not in it", b.OwnMS, pomocOwn)
	}
	t.Logf("!pogoda: upstream_ms %.3f own_ms %.3f; !pomoc own_ms ≤ %.3f", b.UpstreamMS, b.OwnMS, pomocOwn)
	sent := h.WaitSent(4)
	if got := sent[3].Message; got != "Słonecznie, 21°C" {
		t.Errorf("reply %q; want the hook's text", got)
	}
	calls := hook.seen()
	if len(calls) != 1 || !strings.Contains(calls[0].header.Get("traceparent"), "-"+b.TraceID+"-") {
		t.Fatalf("hook calls %+v; want one carrying trace %s", calls, b.TraceID)
	}

	const number, uuid = "+48600000777", "0f1e2d3c-4b5a-4697-8879-a1b2c3d4e5f6"
	h.Sim.ClearSent()
	if _, err := h.Sim.Deliver(sim.Message{From: number, UUID: uuid, Name: "Ala", Text: "!pogoda Kraków"}); err != nil {
		t.Fatal(err)
	}
	h.WaitSent(1)
	last := hook.seen()[1]
	all := last.body + fmt.Sprint(last.header)
	for _, secret := range []string{number, strings.TrimPrefix(number, "+"), uuid, "Ala"} {
		if strings.Contains(all, secret) {
			t.Errorf("the hook saw %q:\n%s", secret, all)
		}
	}
	if m := regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`).FindString(last.body); m != "" {
		t.Errorf("the hook's body holds a uuid %s: %s", m, last.body)
	}
	if !strings.Contains(last.body, `"chat":{"kind":"direct"}`) || !strings.Contains(last.body, `"args":"Kraków"`) {
		t.Errorf("body %s; want a direct chat and the args", last.body)
	}

	h.Say(number, "", "!zasady")
	h.Say(number, "testbot", "!rules")
	sent = h.WaitSent(3)
	if !strings.Contains(sent[1].Message, "!zasady") || sent[2].Message != "Bądźcie dla siebie mili." {
		t.Errorf("!zasady direct: %q, in the group: %q; want not here, then the text", sent[1].Message, sent[2].Message)
	}
}

// Each failure of a hook (a timeout, a 500, 10 MB, garbage JSON, a picture
// URL on loopback) gets the user the apology, fetches nothing else, leaves
// the bot answering, and is counted by its outcome, every outcome exported
// from 0.
func TestHookFailures(t *testing.T) {
	var pictureHits atomic.Int64
	inward := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { pictureHits.Add(1) }))
	defer inward.Close()
	json := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		}
	}
	hook := newHookServer(t, map[string]http.HandlerFunc{
		"/slow":  func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
		"/fail":  func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) },
		"/big":   text(strings.Repeat("x", 10<<20)),
		"/junk":  json(`{"text": "half`),
		"/inner": json(`{"text":"a cat","picture":{"url":"` + inward.URL + `/cat.jpg"}}`),
	})
	names := map[string]string{"slow": "timeout", "fail": "status", "big": "too_big", "junk": "bad_answer", "inner": "picture"}
	urls := map[string]string{}
	for n := range names {
		urls[n] = hook.URL + "/" + n
	}
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COMMANDS_FILE": commandsFile(t, urls)})
	h.Start()
	before := metricsText(t, h)
	for n := range names {
		for _, o := range []string{"ok", "timeout", "status", "too_big", "bad_answer", "picture", "error"} {
			if !strings.Contains(before, fmt.Sprintf(`signal_bot_hook_calls_total{command=%q,outcome=%q} 0`, n, o)) {
				t.Errorf("/metrics lacks hook_calls{%s,%s} at 0", n, o)
			}
		}
	}
	i := 0
	for n := range names {
		h.Say("+48600000100", "", "!"+n)
		if got := h.WaitSent(i + 1)[i]; got.Message != "Przepraszam, coś poszło nie tak. Spróbuj za chwilę." || len(got.Attachments) != 0 {
			t.Errorf("!%s: reply %q with %d attachments; want the apology", n, got.Message, len(got.Attachments))
		}
		i++
	}
	h.Say("+48600000100", "", "!pomoc")
	if got := h.WaitSent(i + 1)[i]; !strings.Contains(got.Message, "!slow — hak slow") {
		t.Errorf("!pomoc after the failures: %q; want the list, with the hooks", got.Message)
	}
	after := metricsText(t, h)
	for n, o := range names {
		if !strings.Contains(after, fmt.Sprintf(`signal_bot_hook_calls_total{command=%q,outcome=%q} 1`, n, o)) {
			t.Errorf("/metrics: !%s not counted as %s", n, o)
		}
	}
	if pictureHits.Load() != 0 {
		t.Errorf("the picture on loopback was fetched %d times", pictureHits.Load())
	}
	if logs := h.Logs.String(); strings.Count(logs, `msg="command failed" command=junk`) != 1 || !strings.Contains(logs, "bad_answer") {
		t.Errorf("want one log line for !junk, with the reason; the log:\n%s", logs)
	}
}

func metricsText(t *testing.T, h *botest.Harness) string {
	t.Helper()
	res, err := http.Get(h.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}
