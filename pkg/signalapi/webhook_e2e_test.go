package signalapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// burstTimeout bounds each burst test, start to last reply.
const burstTimeout = 120 * time.Second

// burstFrames is the size of the receive-mode bursts: 1,000, or BURST_FRAMES,
// a multiple of 100 of at least 100, for a bigger run (BURST_FRAMES=5000:
// about 14 s under -race on two cores). What a burst costs and how fast it
// is answered are figures of BenchmarkWebhookIntake (pkg/bot) and of
// go run ./tool/soak --burst; these tests hold that nothing is lost.
func burstFrames(t *testing.T) int {
	t.Helper()
	v := os.Getenv("BURST_FRAMES")
	if v == "" {
		return 1000
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 100 || n%100 != 0 {
		t.Fatalf("BURST_FRAMES=%q: want a multiple of 100 of at least 100", v)
	}
	return n
}

// burstEnv is the bot configuration of both bursts: every !pomoc answered,
// the FIFO deep enough to hold the whole burst.
func burstEnv(frames int) map[string]string {
	return map[string]string{"COOLDOWNS": "pomoc=0s", "QUEUE_DEPTH": strconv.Itoa(frames + 1000), "LIMIT": "16"}
}

// burstSender is the sender of frame i: 100 of them, round robin.
func burstSender(i int) string { return fmt.Sprintf("+4872000%04d", i%100) }

// In webhook mode the bot answers without any websocket, and /healthz is
// healthy because the REST API answers.
func TestWebhookAnswersCommands(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{}, nil)
	h.StartWebhook()
	h.Say(botest.Alice, "", "!pomoc")
	h.Say(botest.Bob, "testbot", "!pomoc")
	sent := h.WaitSent(2)
	want := map[string]bool{botest.Alice: true, botest.TestGroupRecipient(): true}
	for _, s := range sent {
		if !want[s.Recipients[0]] || !strings.Contains(s.Message, "Komendy") {
			t.Errorf("reply %q to %q; want help to alice and to the group", s.Message, s.Recipients)
		}
	}
	st := h.Sim.Stats()
	if st.Subscribers != 0 || st.WebhookPosted != 2 || st.WebhookFailed != 0 {
		t.Errorf("sim stats = %+v; want no websocket, 2 lines posted", st)
	}
	if m := h.Health(); m["connected"] != true || m["accepted"] != float64(2) {
		t.Errorf("healthz = %v; want connected with 2 accepted", m)
	}
}

// The webhook answers before the frame is handled: with every send hanging,
// all POSTs are still answered 200 and the frames wait in the FIFO.
func TestWebhookAnswersBeforeHandling(t *testing.T) {
	t.Parallel()
	const frames, limit = 20, 2
	h := botest.New(t, sim.Config{Faults: sim.Faults{Send: sim.Fault{Kind: sim.FaultHang}}},
		map[string]string{"LIMIT": strconv.Itoa(limit)})
	h.StartWebhook()
	for i := range frames {
		h.Say(burstSender(i), "", "!pomoc")
	}
	testkit.WaitFor(t, "all lines posted", func() bool { return h.Sim.Stats().WebhookPosted == frames })
	testkit.WaitFor(t, "slots full", func() bool {
		m := h.Health()
		return m["active"] == float64(limit) && m["queue_depth"] == float64(frames-limit)
	})
	if st := h.Sim.Stats(); st.WebhookFailed != 0 || st.Sends != 0 {
		t.Errorf("sim stats = %+v; want every POST answered 200 while no send is", st)
	}
	if n := len(h.Sim.Sent()); n != 0 {
		t.Errorf("%d replies while sends hang; want 0", n)
	}
	h.Sim.Close() // breaks the hung sends, so the bot's shutdown need not wait for SEND_TIMEOUT
}

// A body that is no JSON-RPC line (a bare frame too) is refused and logged;
// a wrong token is refused, counted and logged once; the bot goes on.
func TestWebhookBadRequests(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{}, map[string]string{"WEBHOOK_TOKEN": "hook-secret-of-at-least-32-characters"})
	h.StartWebhook()
	tests := []struct {
		name, query, body string
		wantStatus        int
	}{
		{"not json", "?token=hook-secret-of-at-least-32-characters", "!pomoc", 400},
		{"no params", "?token=hook-secret-of-at-least-32-characters", `{"jsonrpc":"2.0","method":"receive"}`, 400},
		{"params not a frame", "?token=hook-secret-of-at-least-32-characters", `{"jsonrpc":"2.0","method":"receive","params":"x"}`, 200}, // queued, then skipped like a bad websocket frame
		{"bare frame, no JSON-RPC line", "?token=hook-secret-of-at-least-32-characters", `{"envelope":{"source":"+48500000001","sourceNumber":"+48500000001","timestamp":1,"dataMessage":{"timestamp":1,"message":"!pomoc"}},"account":"+48500000000"}`, 400},
		{"no token", "", `{"jsonrpc":"2.0","method":"receive","params":{}}`, 401},
		{"wrong token", "?token=nope", `{"jsonrpc":"2.0","method":"receive","params":{}}`, 403},
		{"wrong token again", "?token=nope", `{"jsonrpc":"2.0","method":"receive","params":{}}`, 403},
		{"wrong token a third time", "?token=nope", `{"jsonrpc":"2.0","method":"receive","params":{}}`, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := h.PostWebhook(tt.query, tt.body); got != tt.wantStatus {
				t.Errorf("status = %d; want %d", got, tt.wantStatus)
			}
		})
	}
	logs := h.Logs.String()
	if !strings.Contains(logs, "webhook body skipped") {
		t.Error("no log line for the skipped bodies")
	}
	if n := strings.Count(logs, "webhook POST refused: wrong token"); n != 1 || strings.Contains(logs, "token=nope") {
		t.Errorf("%d lines for 3 wrong tokens; want 1, without the token:\n%s", n, logs)
	}
	if got := botest.Value(h.Scrape(), "signal_bot_webhook_refused_total", map[string]string{"reason": "token"}); got != 4 {
		t.Errorf("signal_bot_webhook_refused_total{reason=token} = %v; want 4", got)
	}
	h.Say(botest.Alice, "", "!pomoc")
	if s := h.WaitSent(1)[0]; s.Recipients[0] != botest.Alice {
		t.Errorf("reply to %q; want alice", s.Recipients)
	}
}

// THE BURST, webhook mode: every frame of the burst is answered, exactly once.
func TestBurstWebhookLosesNothing(t *testing.T) {
	frames := burstFrames(t)
	h := botest.New(t, sim.Config{}, burstEnv(frames))
	h.StartWebhook()
	ctx, cancel := context.WithTimeout(context.Background(), burstTimeout)
	defer cancel()
	start := time.Now()
	for i := range frames {
		h.Say(burstSender(i), "", "!pomoc")
	}
	sent, err := h.Sim.WaitSent(ctx, frames)
	if err != nil {
		t.Fatalf("waiting for %d replies: %v (got %d)", frames, err, len(h.Sim.Sent()))
	}
	elapsed := time.Since(start)
	h.WaitIdle(frames)
	per := map[string]int{}
	for _, s := range h.Sim.Sent() {
		per[s.Recipients[0]]++
	}
	for r, n := range per {
		if n != frames/100 {
			t.Errorf("%s got %d replies; want %d", r, n, frames/100)
		}
	}
	st, m := h.Sim.Stats(), h.Health()
	if len(sent) != frames || len(per) != 100 || st.WebhookPosted != int64(frames) || st.WebhookFailed != 0 || m["dropped"] != float64(0) {
		t.Errorf("%d replies to %d senders, sim %+v, bot dropped %v; want %d replies, %d posted, nothing lost",
			len(sent), len(per), st, m["dropped"], frames, frames)
	}
	t.Logf("webhook burst: %d frames, %d posted, %d failed, %d answered, 0 lost, in %v",
		frames, st.WebhookPosted, st.WebhookFailed, len(sent), elapsed.Round(time.Millisecond))
}

// THE BURST, websocket mode against the simulator's busy writer (not
// Lossless, FrameWrite as in DefaultLatency): the loss is measured and
// logged, not asserted; what the bot accepted must all be answered.
func TestBurstWebsocketLossMeasured(t *testing.T) {
	frames := burstFrames(t)
	h := botest.New(t, sim.Config{Latency: sim.Latency{FrameWrite: sim.DefaultLatency().FrameWrite}}, burstEnv(frames))
	h.Start()
	ctx, cancel := context.WithTimeout(context.Background(), burstTimeout)
	defer cancel()
	start := time.Now()
	for i := range frames {
		h.Say(burstSender(i), "", "!pomoc")
	}
	testkit.WaitFor(t, "writer done", func() bool { st := h.Sim.Stats(); return st.Written == st.Delivered })
	st := h.Sim.Stats()
	testkit.WaitFor(t, "bot read every written frame", func() bool { return h.Health()["accepted"] == float64(st.Written) })
	sent, err := h.Sim.WaitSent(ctx, int(st.Written))
	if err != nil {
		t.Fatalf("waiting for %d replies: %v (got %d)", st.Written, err, len(h.Sim.Sent()))
	}
	elapsed := time.Since(start)
	h.WaitIdle(int(st.Written))
	if n, m := len(h.Sim.Sent()), h.Health(); n != int(st.Written) || m["dropped"] != float64(0) {
		t.Errorf("%d replies, bot dropped %v; want %d, one per accepted frame", n, m["dropped"], st.Written)
	}
	lost := st.Offered - st.Delivered
	t.Logf("websocket burst: %d frames offered, %d delivered, %d dropped busy, %d dropped without subscriber: %d lost (%.1f%%); %d answered in %v",
		st.Offered, st.Delivered, st.DroppedBusy, st.DroppedNoSubscriber, lost, 100*float64(lost)/float64(st.Offered), len(sent), elapsed.Round(time.Millisecond))
}

// A frame the bot chose not to take (its sender already has SENDER_QUEUE
// frames waiting) is answered 200 and counted, not 503: the REST API does
// not retry, so a 503 would only add an error line per message to its log.
// The drops are one log line.
func TestWebhookDeclinedFramesAre200(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true, Latency: sim.Latency{Send: 300 * time.Millisecond}},
		map[string]string{"SENDER_QUEUE": "1", "LIMIT": "1"})
	h.StartWebhook()
	const posts = 6
	for i := range posts {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"receive","params":{"envelope":{"source":%q,"sourceNumber":%q,"timestamp":%d,"dataMessage":{"timestamp":%d,"message":"!pomoc"}},"account":%q}}`,
			botest.Alice, botest.Alice, 100+i, 100+i, h.Sim.Number())
		if got := h.PostWebhook("?token="+botest.WebhookToken, line); got != http.StatusOK {
			t.Errorf("POST %d = %d; want 200", i, got)
		}
	}
	m := h.Health()
	dropped, _ := m["dropped_sender_queue"].(float64)
	if dropped < 1 || m["dropped"] != m["dropped_sender_queue"] {
		t.Errorf("/healthz %v; want the sender's excess frames dropped by SENDER_QUEUE, and nothing else", m)
	}
	h.WaitSent(posts - int(dropped))
	if n := strings.Count(h.Logs.String(), "frame dropped"); n != 1 {
		t.Errorf("%d lines for %v drops; want 1 (a line a minute)", n, dropped)
	}
}

// 10,000 bodies that are no JSON-RPC receive line (a local process posting
// garbage) are each answered 400 and counted, and logged in one line, not
// 10,000: a line a minute with the count, as the other refusals.
func TestWebhookBadBodiesOneLine(t *testing.T) {
	const bodies = 10_000
	h := botest.New(t, sim.Config{}, nil)
	h.StartWebhook()
	url := h.URL() + "/_webhook?token=" + botest.WebhookToken
	client := &http.Client{}
	defer client.CloseIdleConnections()
	for i := range bodies {
		body := "not json " + strconv.Itoa(i)
		if i%2 == 1 { // a bare frame, no JSON-RPC line
			body = fmt.Sprintf(`{"envelope":{"source":%q,"timestamp":%d,"dataMessage":{"message":"!pomoc"}}}`, botest.Alice, i)
		}
		res, err := client.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest {
			t.Fatalf("body %d: %d; want 400", i, res.StatusCode)
		}
	}
	if n := strings.Count(h.Logs.String(), "webhook body skipped"); n != 1 {
		t.Errorf("%d log lines for %d bad bodies; want 1", n, bodies)
	}
	if got := botest.Value(h.Scrape(), "signal_bot_webhook_bad_bodies_total", nil); got != bodies {
		t.Errorf("signal_bot_webhook_bad_bodies_total = %v; want %d", got, bodies)
	}
	if w, _ := h.Health()["webhook"].(map[string]any); w["bad"] != float64(bodies) {
		t.Errorf("/healthz webhook = %v; want bad %d", w, bodies)
	}
	h.Say(botest.Alice, "", "!pomoc")
	if s := h.WaitSent(1)[0]; s.Recipients[0] != botest.Alice {
		t.Errorf("reply to %q; want alice", s.Recipients)
	}
}
