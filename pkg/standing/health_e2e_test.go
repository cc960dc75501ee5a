package standing_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
	"signal-bot/pkg/standing"
)

// While every send fails, /healthz turns degraded at the
// standing.SendFailuresDegraded-th failure in a row, with the reason; the first
// send that goes clears it.
func TestHealthDegradedWhileSendsFail(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true, Faults: sim.Faults{Send: sim.Fault{Kind: sim.FaultBadRequest}}}, nil)
	h.Start()
	say := func(i int) { h.Say(fmt.Sprintf("+4873200%04d", i), "", "!pomoc") }
	for i := range standing.SendFailuresDegraded - 1 {
		say(i)
	}
	h.WaitIdle(standing.SendFailuresDegraded - 1)
	if code, m := h.Healthz(); code != http.StatusOK || m["status"] != "ok" || botest.Reasons(m) != "" {
		t.Errorf("/healthz after %d failed sends = %d %v; want 200 ok", standing.SendFailuresDegraded-1, code, m)
	}
	say(standing.SendFailuresDegraded)
	h.WaitIdle(standing.SendFailuresDegraded)
	code, m := h.Healthz()
	send, _ := m["send"].(map[string]any)
	want := fmt.Sprintf("sends failing: the last %d failed, since ", standing.SendFailuresDegraded)
	if code != http.StatusServiceUnavailable || m["status"] != "degraded" || !strings.Contains(botest.Reasons(m), want) ||
		!strings.Contains(botest.Reasons(m), "Failed to send message") || send["failing"] != true {
		t.Errorf("/healthz after %d failed sends = %d %v; want 503 degraded with the reason %q…", standing.SendFailuresDegraded, code, m, want)
	}
	if fs, _ := send["failing_since"].(string); fs == "" {
		t.Errorf("send.failing_since = %v; want the first failure's time", send["failing_since"])
	}
	if got := botest.Value(h.Scrape(), "signal_bot_send_failed_in_row", nil); got != standing.SendFailuresDegraded {
		t.Errorf("signal_bot_send_failed_in_row = %v; want %d", got, standing.SendFailuresDegraded)
	}
	h.Sim.SetFaults(sim.Faults{})
	say(99)
	h.WaitSent(1)
	h.WaitIdle(standing.SendFailuresDegraded + 1)
	code, m = h.Healthz()
	send, _ = m["send"].(map[string]any)
	if code != http.StatusOK || m["status"] != "ok" || botest.Reasons(m) != "" || send["failed_in_row"] != float64(0) || send["failing"] != false {
		t.Errorf("/healthz after a send went = %d %v; want 200 ok, nothing failing", code, m)
	}
}

// A 429 pauses every send; while it does, /healthz is degraded and names
// the pause's end, the time send_paused_until gives.
func TestHealthDegradedWhilePaused(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true, Faults: sim.Faults{Send: sim.Fault{Kind: sim.FaultRateLimit, Next: 1}}},
		map[string]string{"RATE_LIMIT_PAUSE": "10m"}) // far beyond the test: the pause is on when /healthz is read
	h.Start()
	h.Say(botest.Alice, "", "!pomoc")
	h.WaitIdle(1)
	code, m := h.Healthz()
	until, _ := m["send_paused_until"].(string)
	at, err := time.Parse(time.RFC3339Nano, until)
	if err != nil {
		t.Fatalf("send_paused_until = %v (%v); want the pause's end", m["send_paused_until"], err)
	}
	want := "sends paused after a rate limit (429) until " + at.UTC().Format(time.RFC3339Nano)
	if code != http.StatusServiceUnavailable || m["status"] != "degraded" || !strings.Contains(botest.Reasons(m), want) {
		t.Errorf("/healthz in the pause = %d %v; want 503 degraded with %q", code, m, want)
	}
	if time.Until(at) < 5*time.Minute {
		t.Errorf("the pause ends at %v; want about RATE_LIMIT_PAUSE=10m from now", at)
	}
}

// A 201 whose body is no JSON: the message went, so the bot counts it as
// sent with an unreadable answer: no retry, no apology, not a send error,
// /healthz ok; and the next frames are answered as usual.
func TestSendAnswerUnreadableCountsAsSent(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true, Faults: sim.Faults{Send: sim.Fault{Kind: sim.FaultGarbage, Next: 1}}}, nil)
	h.Start()
	h.Say(botest.Alice, "", "!pomoc")
	h.WaitIdle(1)
	h.Say(botest.Bob, "", "!pomoc")
	sent := h.WaitSent(2)
	h.WaitIdle(2)
	if st := h.Sim.Stats(); st.Sends != 2 || st.FaultsInjected != 1 || len(sent) != 2 {
		t.Errorf("simulator: %d sends, %d faults, %d recorded; want 2, 1, 2 (no retry, no apology)", st.Sends, st.FaultsInjected, len(sent))
	}
	for i, who := range []string{botest.Alice, botest.Bob} {
		if sent[i].Recipients[0] != who || !strings.Contains(sent[i].Message, "Komendy") {
			t.Errorf("send %d = %q to %v; want the help to %s", i, sent[i].Message, sent[i].Recipients, who)
		}
	}
	code, m := h.Healthz()
	send, _ := m["send"].(map[string]any)
	if code != http.StatusOK || send["answer_unreadable"] != float64(1) || send["failed_in_row"] != float64(0) {
		t.Errorf("/healthz = %d %v; want 200, 1 answer unreadable, no failure", code, m)
	}
	fams := h.Scrape()
	if got := botest.Value(fams, "signal_bot_sends_answer_unreadable_total", nil); got != 1 {
		t.Errorf("signal_bot_sends_answer_unreadable_total = %v; want 1", got)
	}
	if got := botest.Value(fams, "signal_bot_send_errors_total", nil); got > 0 {
		t.Errorf("signal_bot_send_errors_total = %v; want none", got)
	}
	if got := botest.Value(fams, "signal_bot_replies_total", map[string]string{"outcome": "served"}); got != 2 {
		t.Errorf("replies served = %v; want 2", got)
	}
	if !strings.Contains(h.Logs.String(), "answer was unreadable") {
		t.Error("no log line for the unreadable answer")
	}
}
