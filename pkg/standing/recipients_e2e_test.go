package standing_test

import (
	"net/http"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// bigGroup is the test group with two more members, so that two of them can
// fail while the others get the message.
func bigGroup() sim.Group {
	g := sim.TestGroup()
	g.Members = append(g.Members, "+48500000007", "+48500000008")
	return g
}

// A 201 naming two members Signal rate-limited, while the others got the
// reply: both counted by reason, every send paused as after a 429 (the next
// command is shed, nothing is retried), one log line with the counts and
// sender hashes but no number.
func TestRecipientsRateLimited(t *testing.T) {
	t.Parallel()
	g := bigGroup()
	limited := map[string]string{g.Members[2]: "RATE_LIMIT_FAILURE", g.Members[3]: "RATE_LIMIT_FAILURE"}
	h := botest.New(t, sim.Config{Lossless: true, SendShape: sim.ShapeArray, Groups: []sim.Group{g},
		Faults: sim.Faults{RecipientErrors: limited}}, nil)
	h.Start()
	h.Say(g.Members[0], "testbot", "!pomoc")
	h.WaitSent(1)
	h.WaitIdle(1)
	fams := h.Scrape()
	if got := botest.Value(fams, "signal_bot_send_recipient_failures_total", map[string]string{"reason": "rate_limit"}); got != 2 {
		t.Errorf("recipient failures by rate_limit = %v; want 2", got)
	}
	if got := botest.Value(fams, "signal_bot_send_recipient_failures_total", map[string]string{"reason": "identity"}); got != 0 {
		t.Errorf("recipient failures by identity = %v; want 0, exported", got)
	}
	m := h.Health()
	if m["send_paused_until"] == nil {
		t.Fatalf("/healthz after a 201 with rate-limited recipients: %v; want sends paused", m)
	}
	h.Say(g.Members[1], "testbot", "!pomoc")
	h.WaitIdle(2)
	if n := len(h.Sim.Sent()); n != 1 {
		t.Errorf("%d sends; want 1: the next reply waits out the pause (shed), nothing is retried", n)
	}
	logs := h.Logs.String()
	if strings.Count(logs, "recipients a send did not reach") != 1 || !strings.Contains(logs, "rate_limit:2") {
		t.Errorf("want one line with the counts; logs:\n%s", logs)
	}
	for _, num := range g.Members {
		if strings.Contains(logs, strings.TrimPrefix(num, "+")) {
			t.Errorf("the log names a member's number %s", num)
		}
	}
}

// A member whose safety number changed: counted, /healthz degraded with how
// many members are unreachable and why, the reply to the others sent once
// and nothing retried; once a send reaches the member again (their key
// trusted), the status is ok.
func TestRecipientIdentityFailure(t *testing.T) {
	t.Parallel()
	g := bigGroup()
	h := botest.New(t, sim.Config{Lossless: true, SendShape: sim.ShapeArray, Groups: []sim.Group{g},
		Faults: sim.Faults{RecipientErrors: map[string]string{g.Members[3]: "IDENTITY_FAILURE"}}}, nil)
	h.Start()
	h.Say(g.Members[0], "testbot", "!pomoc")
	h.WaitSent(1)
	h.WaitIdle(1)
	code, m := h.Healthz()
	u, _ := m["unreachable"].(map[string]any)
	by, _ := u["by_reason"].(map[string]any)
	if code != http.StatusServiceUnavailable || u["members"] != float64(1) || by["identity"] != float64(1) ||
		!strings.Contains(botest.Reasons(m), "1 member(s) unreachable: their safety number changed") {
		t.Errorf("/healthz = %d %v; want 503 with one member unreachable by identity", code, m)
	}
	if got := botest.Value(h.Scrape(), "signal_bot_send_recipient_failures_total", map[string]string{"reason": "identity"}); got != 1 {
		t.Errorf("recipient failures by identity = %v; want 1", got)
	}
	if st := h.Sim.Stats(); st.Sends != 1 || m["send_paused_until"] != nil {
		t.Errorf("sends %d, paused %v; want the one send and no pause", st.Sends, m["send_paused_until"])
	}
	h.Sim.SetFaults(sim.Faults{}) // the operator trusted the new key
	h.Say(g.Members[1], "testbot", "!pomoc")
	h.WaitSent(2)
	h.WaitIdle(2)
	if code, m := h.Healthz(); code != http.StatusOK || m["unreachable"].(map[string]any)["members"] != float64(0) {
		t.Errorf("/healthz after a send reached everyone = %d %v; want 200, none unreachable", code, m)
	}
}

// A direct chat whose one recipient's safety number changed is the REST
// API's 400 "untrusted recipient keys": that member is unreachable.
func TestDirectUntrusted(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true, Faults: sim.Faults{RecipientErrors: map[string]string{sim.DefaultSender: "IDENTITY_FAILURE"}}}, nil)
	h.Start()
	h.Say(sim.DefaultSender, "", "!pomoc")
	h.WaitIdle(1)
	code, m := h.Healthz()
	if code != http.StatusServiceUnavailable || m["unreachable"].(map[string]any)["members"] != float64(1) {
		t.Errorf("/healthz = %d %v; want one member unreachable", code, m)
	}
	if strings.Contains(h.Logs.String(), strings.TrimPrefix(sim.DefaultSender, "+")) {
		t.Error("the log names the member's number")
	}
}

// When Signal demands a captcha, /healthz is degraded with captcha_required
// and the challenge token, and says what to do.
func TestHealthCaptchaRequired(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Sim.SetCaptcha(true, "")
	h.Start()
	h.Say(sim.DefaultSender, "", "!pomoc")
	h.WaitIdle(1)
	code, m := h.Healthz()
	c, _ := m["captcha_required"].(map[string]any)
	if code != http.StatusServiceUnavailable || c["challenge_token"] != "sim-captcha-1" || !strings.Contains(botest.Reasons(m), "captcha_required") ||
		!strings.Contains(botest.Reasons(m), "!bot captcha") {
		t.Errorf("/healthz = %d %v; want degraded, captcha_required with the token and what to do", code, m)
	}
	if strings.Count(h.Logs.String(), "challenge_tokens=sim-captcha-1") != 1 {
		t.Errorf("want one log line with the token:\n%s", h.Logs.String())
	}
}
