package app_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/store"
)

// The bot as a real process (issue 7, items 4 and 8): SIGTERM under load and
// kill -9 during a burst. The binary is built once for all subtests, with
// -race when the tests run with it.
func TestProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped under -short (testing.Short): builds and runs the signal-bot binary")
	}
	bin := buildBot(t)
	t.Run("SIGTERM finishes the queue", func(t *testing.T) { testSigtermDrains(t, bin) })
	t.Run("SIGTERM past SHUTDOWN_TIMEOUT counts the cut", func(t *testing.T) { testSigtermCuts(t, bin) })
	t.Run("kill -9 loses no committed use", func(t *testing.T) { testKillKeepsUses(t, bin) })
	t.Run("kill -9 keeps a prefix of the uses", func(t *testing.T) { testKillKeepsPrefix(t, bin) })
	t.Run("a removed variable stops the bot", func(t *testing.T) { testRenamedVariable(t, bin) })
	t.Run("a weak secret or a number without the REST API stops the bot", func(t *testing.T) { testBadSecrets(t, bin) })
	t.Run("a commands file with three mistakes stops the bot with exit 2", func(t *testing.T) { testCommandsFileMistakes(t, bin) })
	t.Run("a text command made in chat survives kill -9", func(t *testing.T) { testTextCommandSurvivesKill(t, bin) })
	t.Run("the sandbox keeps its own state file", func(t *testing.T) { testSandboxState(t, bin) })
	t.Run("socket activation keeps the POSTs of the downtime", func(t *testing.T) { testActivationKeepsPosts(t, bin) })
	t.Run("restart under traffic", func(t *testing.T) { testRestartUnderTraffic(t, bin) })
	t.Run("kill -9 with 200 frames accepted: the journal replays them", func(t *testing.T) { testKillReplaysJournal(t, bin) })
	t.Run("a replayed frame keeps its place before the sender's next", func(t *testing.T) { testReplayKeepsOrder(t, bin) })
	t.Run("frames older than REPLAY_MAX_AGE are dropped, not answered", func(t *testing.T) { testReplayTooOld(t, bin) })
	t.Run("a frame replayed REPLAY_MAX_ATTEMPTS times is dropped as poison", func(t *testing.T) { testPoisonFrameDropped(t, bin) })
	t.Run("a replay meets its own use: answered again, never refused", func(t *testing.T) { testReplayAnswersItsOwnUse(t, bin) })
	t.Run("a frame answered before a restart is not answered again", func(t *testing.T) { testDuplicateAfterRestart(t, bin) })
	t.Run("a webhook POST answered 200 survives kill -9", func(t *testing.T) { testWebhookAnswerIsDurable(t, bin) })
	t.Run("flood from one sender is dropped, not held", func(t *testing.T) { testSenderFlood(t, bin) })
	t.Run("a damaged state file stops the bot with exit 2", func(t *testing.T) { testDamagedStateStops(t, bin) })
	t.Run("an empty state file starts fresh", func(t *testing.T) { testStateStartsFresh(t, bin) })
	t.Run("a 0666 state file ends at 0600", func(t *testing.T) { testStateModeTightened(t, bin) })
	t.Run("a second bot on the same state file is refused", func(t *testing.T) { testSecondBotRefused(t, bin) })
	t.Run("SIGHUP drains like SIGTERM", func(t *testing.T) { testSighupDrains(t, bin) })
	t.Run("kill -9 right after !bot confirmed a change keeps it", func(t *testing.T) { testAdminChangeSurvivesKill(t, bin) })
	t.Run("one-off senders' records are pruned at start", func(t *testing.T) { testOneOffSenders(t, bin) })
}

// buildBot builds ./cmd/signal-bot into a temporary folder.
func buildBot(t *testing.T) string {
	t.Helper()
	goBin := "go"
	if root := os.Getenv("GOROOT"); root != "" {
		goBin = filepath.Join(root, "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "signal-bot")
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goBin, append(args, "signal-bot/cmd/signal-bot")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// world is what a bot process runs against: the simulator, the fake
// upstreams and an OTLP/HTTP receiver, all on loopback.
type world struct {
	sim   *sim.Sim
	up    *fakeup.Server
	spans *traceSink
	env   map[string]string
}

func newWorld(t *testing.T, cfg sim.Config) *world {
	t.Helper()
	w := &world{sim: sim.New(cfg), up: fakeup.New(fakeup.Config{Width: 320, Height: 240}), spans: &traceSink{}}
	simURL, err := w.sim.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.up.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	otlp := httptest.NewServer(w.spans)
	t.Cleanup(func() {
		otlp.Close()
		w.sim.Close()
		w.up.Close()
	})
	w.env = map[string]string{
		"SIGNAL_API_URL": simURL, "SIGNAL_NUMBER": w.sim.Number(),
		"SIGNAL_GROUPS": "testbot=" + botest.TestGroupRecipient(),
		"CAT_API_URL":   w.up.CatAPIURL(), "COMMONS_API_URL": w.up.CommonsAPIURL(),
		"HTTP_ADDR":      "127.0.0.1:0",
		"UPSTREAM_ALLOW": w.up.Addr(),
		"STATE_PATH":     filepath.Join(t.TempDir(), "state.db"),
		// Spans leave only through the flush at shutdown: the batch
		// processor's own schedule is longer than any of these tests.
		"OTEL_EXPORTER_OTLP_ENDPOINT": otlp.URL, "OTEL_BSP_SCHEDULE_DELAY": "600000",
	}
	for k, v := range botest.LimitsOff() { // direct chats from made-up numbers, bursts
		w.env[k] = v
	}
	return w
}

// say delivers a direct !command from sender.
func (w *world) say(t *testing.T, from, text string) {
	t.Helper()
	if _, err := w.sim.Deliver(sim.Message{From: from, Text: text}); err != nil {
		t.Fatal(err)
	}
}

// waitSent waits (20 s at most) for n sends.
func (w *world) waitSent(t *testing.T, n int) []sim.Sent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sent, err := w.sim.WaitSent(ctx, n)
	if err != nil {
		t.Fatalf("waiting for %d sends: %v (got %d)", n, err, len(sent))
	}
	return sent
}

// proc is one signal-bot process.
type proc struct {
	cmd    *exec.Cmd
	url    string
	stderr *botest.SyncBuffer
	exited chan struct{}
	err    error // Wait's, once exited is closed
}

var httpLine = regexp.MustCompile(`msg="signal-bot running".* http=(http://\S+)`)

// startBot runs bin with env and waits until its websocket is connected. A
// process still running when the test ends is killed.
func startBot(t *testing.T, bin string, env map[string]string) *proc {
	t.Helper()
	return startCmd(t, exec.Command(bin), env)
}

// startCmd is startBot for a command that runs the bot some other way.
func startCmd(t *testing.T, cmd *exec.Cmd, env map[string]string) *proc {
	t.Helper()
	p := &proc{cmd: cmd, stderr: &botest.SyncBuffer{}, exited: make(chan struct{})}
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
		if t.Failed() {
			t.Logf("signal-bot stderr:\n%s", p.stderr)
		}
	})
	waitFor(t, "the bot's HTTP address", func() bool {
		if m := httpLine.FindStringSubmatch(p.stderr.String()); m != nil {
			p.url = m[1]
			return true
		}
		select {
		case <-p.exited:
			t.Fatalf("signal-bot exited at start: %v\n%s", p.err, p.stderr)
		default:
		}
		return false
	})
	waitFor(t, "the websocket", func() bool { return p.health(t)["connected"] == true })
	return p
}

// health reads /healthz (nil if the bot does not answer).
func (p *proc) health(t *testing.T) map[string]any {
	t.Helper()
	res, err := http.Get(p.url + "/healthz")
	if err != nil {
		return nil
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil {
		t.Fatalf("/healthz: %v", err)
	}
	return m
}

// stop sends sig and returns the exit code (30 s at most).
func (p *proc) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("signal-bot still running 30 s after %v", sig)
	}
	return p.cmd.ProcessState.ExitCode()
}

// cutOff returns the count of the "frames cut off at shutdown" line, or -1.
func (p *proc) cutOff() int {
	m := regexp.MustCompile(`msg="frames cut off at shutdown" count=(\d+)`).FindStringSubmatch(p.stderr.String())
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// traceSink is an OTLP/HTTP trace receiver that counts root "frame" spans.
type traceSink struct {
	mu       sync.Mutex
	requests int
	frames   map[string]string // trace id → bot.outcome
}

func (o *traceSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	var req coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(raw, &req)
	}
	if r.URL.Path != "/v1/traces" || err != nil {
		http.Error(w, fmt.Sprintf("%s: %v", r.URL.Path, err), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requests++
	if o.frames == nil {
		o.frames = map[string]string{}
	}
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				if s.Name != "frame" || len(s.ParentSpanId) != 0 {
					continue
				}
				outcome := ""
				for _, kv := range s.Attributes {
					if kv.Key == "bot.outcome" {
						outcome = kv.Value.GetStringValue()
					}
				}
				o.frames[fmt.Sprintf("%x", s.TraceId)] = outcome
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

// outcomes counts the exported frames by outcome.
func (o *traceSink) outcomes() (requests int, frames map[string]int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	frames = map[string]int{}
	for _, oc := range o.frames {
		frames[oc]++
	}
	return o.requests, frames
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// SIGTERM while 40 slow sends are queued behind LIMIT=4: every accepted frame
// is answered, nothing is cut off, every frame's spans are flushed, exit 0,
// and every use is in the state file. The commit interval is one the test
// never reaches, so the uses are there because the shutdown committed them.
func testSigtermDrains(t *testing.T, bin string) {
	const frames = 40
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 100 * time.Millisecond}})
	w.env["LIMIT"], w.env["SHUTDOWN_TIMEOUT"], w.env["STATE_COMMIT_INTERVAL"] = "4", "30s", "1m"
	p := startBot(t, bin, w.env)
	number := func(i int) string { return fmt.Sprintf("+4873000%04d", i) }
	for i := range frames {
		w.say(t, number(i), "!pomoc")
	}
	waitFor(t, "every frame accepted", func() bool { return p.health(t)["accepted"] == float64(frames) })
	if h := p.health(t); h["queue_depth"] == float64(0) {
		t.Fatalf("the queue drained before SIGTERM (%v); the test would prove nothing", h)
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d; want 0\n%s", code, p.stderr)
	}
	if n := len(w.sim.Sent()); n != frames {
		t.Errorf("%d replies to %d accepted frames; want all", n, frames)
	}
	if n := p.cutOff(); n != -1 {
		t.Errorf("%d frames cut off; want none", n)
	}
	reqs, got := w.spans.outcomes()
	if got["served"] != frames || total(got) != frames {
		t.Errorf("exported frames by outcome %v; want %d served", got, frames)
	}
	uses, chat := readUses(t, w.env["STATE_PATH"], "pomoc", frames, number)
	for i := range frames {
		if n := uses[number(i)]; n != 1 {
			t.Errorf("%s: %d uses of !pomoc in the state file; want 1", number(i), n)
		}
	}
	if chat != frames {
		t.Errorf("the chat's !pomoc count in the state file = %d; want %d", chat, frames)
	}
	t.Logf("SIGTERM with the queue full: %d replies, exit 0, %d frame traces flushed in %d OTLP requests", frames, total(got), reqs)
}

// SIGTERM with sends that cannot finish within SHUTDOWN_TIMEOUT: the process
// still exits 0, logs the count it cut off, and flushes every frame's spans.
func testSigtermCuts(t *testing.T, bin string) {
	const quick, stuck, limit = 10, 30, 4
	w := newWorld(t, sim.Config{Lossless: true})
	w.env["LIMIT"], w.env["SHUTDOWN_TIMEOUT"] = strconv.Itoa(limit), "300ms"
	p := startBot(t, bin, w.env)
	for i := range quick {
		w.say(t, fmt.Sprintf("+4874000%04d", i), "!pomoc")
	}
	w.waitSent(t, quick)
	w.sim.SetLatency(sim.Latency{Send: time.Hour}) // these sends never finish
	for i := range stuck {
		w.say(t, fmt.Sprintf("+4874100%04d", i), "!pomoc")
	}
	waitFor(t, "every frame accepted and the slots full", func() bool {
		h := p.health(t)
		return h["accepted"] == float64(quick+stuck) && h["active"] == float64(limit)
	})
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("exit code %d; want 0\n%s", code, p.stderr)
	}
	if n := len(w.sim.Sent()); n != quick {
		t.Errorf("%d replies; want the %d quick ones", n, quick)
	}
	if n := p.cutOff(); n != stuck {
		t.Errorf(`"frames cut off at shutdown" count = %d; want %d`, n, stuck)
	}
	_, got := w.spans.outcomes()
	if got["served"] != quick || total(got) != quick+stuck {
		t.Errorf("exported frames by outcome %v; want %d served of %d", got, quick, quick+stuck)
	}
	t.Logf("SIGTERM past SHUTDOWN_TIMEOUT: exit 0, cut off %d, exported frames by outcome %v", p.cutOff(), got)
}

// kill -9 in the middle of a burst of !kot (cooldown 1 h) from 40 people.
// The file holds at most one use per person and a chat count that matches
// them (a consistent state, nothing invented); a picture sent within the last
// commit interval may have no use on disk. After a restart each committed use
// still holds its cooldown and an uncommitted one does not.
func testKillKeepsUses(t *testing.T, bin string) {
	const senders = 40
	w := newWorld(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 20 * time.Millisecond}})
	w.env["LIMIT"], w.env["COOLDOWNS"] = "4", "kot=1h"
	// The state file's own guarantee, alone: with the journal on, the next
	// process would replay the frames the kill left and record their uses
	// again, and the uses on disk after the restart would no longer be the
	// ones this process committed.
	w.env["JOURNAL_MAX_FRAMES"] = "0"
	p := startBot(t, bin, w.env)
	number := func(i int) string { return fmt.Sprintf("+4875000%04d", i) }
	for i := range senders {
		w.say(t, number(i), "!kot")
	}
	w.waitSent(t, senders/5)
	if code := p.stop(t, syscall.SIGKILL); code != -1 {
		t.Fatalf("exit code %d after SIGKILL; want -1 (killed)", code)
	}
	pictures := repliesTo(w.sim.Sent())
	uses, chat := readUses(t, w.env["STATE_PATH"], "kot", senders, number)
	committed, sent := 0, 0
	for i := range senders {
		n := number(i)
		committed += int(uses[n])
		sent += pictures[n]
		if uses[n] > 1 {
			t.Errorf("%s: %d uses on disk; want at most 1", n, uses[n])
		}
	}
	if chat != int64(committed) {
		t.Errorf("the chat's !kot count on disk = %d, the people's uses sum to %d; want them equal", chat, committed)
	}
	t.Logf("kill -9 after %d pictures: %d uses committed of %d frames", sent, committed, senders)
	if committed == senders {
		t.Logf("every use was committed before the kill; the restart check below still runs")
	}

	w.sim.ClearSent()
	p = startBot(t, bin, w.env)
	for i := range senders {
		w.say(t, number(i), "!kot")
	}
	got := map[string]string{}
	for _, s := range w.waitSent(t, senders) {
		kind := "cooldown"
		if len(s.Attachments) == 1 {
			kind = "picture"
		} else if !bytes.Contains([]byte(s.Message), []byte("Poczekaj jeszcze")) {
			kind = s.Message
		}
		got[s.Recipients[0]] = kind
	}
	for i := range senders {
		n := number(i)
		want := "picture"
		if uses[n] == 1 {
			want = "cooldown"
		}
		if got[n] != want {
			t.Errorf("%s (%d uses on disk) got %q after the restart; want %s", n, uses[n], got[n], want)
		}
	}
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("exit code %d after the restart; want 0", code)
	}
}

// readUses opens the state file of a stopped bot and returns each sender's
// count of command, keyed by number (the bot keys tallies by the sender's
// UUID), and the direct chat's count of it.
func readUses(t *testing.T, path, command string, senders int, number func(int) string) (uses map[string]int64, chat int64) {
	t.Helper()
	st, err := store.Open(store.Config{Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	uses = map[string]int64{}
	for i := range senders {
		ts, err := st.Tallies(sim.UUIDOf(number(i)))
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range ts {
			if tl.Command == command {
				uses[number(i)] = tl.Count
			}
		}
	}
	chat, err = st.ChatCount("direct", command)
	if err != nil {
		t.Fatal(err)
	}
	return uses, chat
}
