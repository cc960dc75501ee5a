package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// generous is a budget no run on a loaded test machine exceeds, so that the
// tests that want a pass do not depend on timing.
const generous = "60s"

// runTool runs the tool in-process against url and returns its exit status
// and output.
// env without SELFTEST_TOKEN gets startBot's, testToken: the bot serves
// /_override only with a token.
func runTool(ctx context.Context, env map[string]string, args ...string) (code int, stdout, stderr string) {
	if _, set := env["SELFTEST_TOKEN"]; !set {
		env = maps.Clone(env)
		if env == nil {
			env = map[string]string{}
		}
		env["SELFTEST_TOKEN"] = testToken
	}
	var out, errs bytes.Buffer
	code = run(ctx, args, mapEnv(env), &out, &errs)
	return code, out.String(), errs.String()
}

// startBot starts the bot against the simulator with env on top of the
// harness's defaults and SELFTEST_TOKEN testToken (the bot serves /_override
// only with a token).
func startBot(t *testing.T, simCfg sim.Config, env map[string]string) *botest.Harness {
	t.Helper()
	simCfg.Lossless = true
	h := botest.New(t, simCfg, map[string]string{"SELFTEST_TOKEN": testToken})
	for k, v := range env {
		h.Env[k] = v
	}
	h.Start()
	return h
}

// overrides is the list of active cooldown overrides on /healthz.
func overrides(h *botest.Harness) []any {
	l, _ := h.Health()["overrides"].([]any)
	return l
}

// kotStatus sends one !kot through /_selftest and returns the HTTP status
// (0 for a reply, 429 while the cooldown holds).
func kotStatus(t *testing.T, h *botest.Harness) int {
	t.Helper()
	c := newClient(h.URL(), testToken, 1)
	defer c.close()
	_, err := c.selftest(context.Background(), "testbot", "!kot", 0)
	if err != nil && statusOf(err) == 0 {
		t.Fatal(err)
	}
	return statusOf(err)
}

// assertCooldownRestored checks that no override is left and that a second
// !kot within the 30 s cooldown is refused again (the first may be refused
// already, when the run used !kot).
func assertCooldownRestored(t *testing.T, h *botest.Harness) {
	t.Helper()
	if l := overrides(h); len(l) != 0 {
		t.Errorf("overrides after the run = %v; want none", l)
	}
	kotStatus(t, h)
	if got := kotStatus(t, h); got != 429 {
		t.Errorf("!kot after the run: status %d; want 429 (cooldown back)", got)
	}
}

func TestRunAgainstBot(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  []string
	}{
		{name: "a normal run passes and restores the cooldown",
			args: []string{"testbot", "--text", "!kot", "--times", "3", "--budget", generous}, wantCode: exitPass,
			wantOut: []string{"3 ok, 0 failed", "own_ms ", "round_trip_ms ", "http_ms ", "PASS"}},
		{name: "a tiny budget fails",
			args: []string{"--budget", "0.000001", "--text", "!kot", "--times", "2", "testbot"}, wantCode: exitOverBudget,
			wantOut: []string{"2 ok", "> 1e-06 ms  FAIL"}},
		{name: "open loop reports queue_ms",
			args: []string{"testbot", "--rate", "40", "--duration", "100ms", "--budget", generous}, wantCode: exitPass,
			wantOut: []string{"open loop, 40/s", "4 planned", "queue_ms ", "PASS"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startBot(t, sim.Config{}, nil)
			code, out, errs := runTool(context.Background(), map[string]string{"HTTP_ADDR": h.Bot.HTTPAddr()}, tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d; want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errs)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			assertCooldownRestored(t, h)
		})
	}
}

// --json prints one document with every field, the histogram and the verdict.
// An open loop spread over several synthetic senders is answered in full.
func TestRunOpenLoopManySenders(t *testing.T) {
	h := startBot(t, sim.Config{}, nil)
	var out, errs strings.Builder
	code := run(context.Background(), []string{"testbot", "--url", h.URL(), "--rate", "50", "--duration", "400ms", "--senders", "8", "--budget", "60s", "--json"}, mapEnv(map[string]string{"SELFTEST_TOKEN": testToken}), &out, &errs)
	if code != 0 {
		t.Fatalf("exit %d; stderr %s", code, errs.String())
	}
	if got := len(h.Sim.Sent()); got != 20 {
		t.Errorf("%d replies; want 20", got)
	}
}

func TestRunJSON(t *testing.T) {
	h := startBot(t, sim.Config{}, nil)
	code, out, errs := runTool(context.Background(), nil, "testbot", "--times", "4", "--json", "--url", h.URL(), "--budget", generous)
	if code != exitPass {
		t.Fatalf("exit %d; want 0; stderr: %s", code, errs)
	}
	var r report
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("stdout is not one JSON report: %v\n%s", err, out)
	}
	if dec.More() {
		t.Errorf("stdout holds more than one JSON document:\n%s", out)
	}
	for _, row := range r.Fields.rows() {
		if row.N != 4 {
			t.Errorf("%s n = %d; want 4", row.name, row.N)
		}
	}
	if r.OK != 4 || r.Mode != "closed" || !r.Budget.Pass || r.Budget.ValueMS == nil || len(r.Histogram) == 0 {
		t.Errorf("report = %+v; want 4 ok, closed loop, a passing budget and a histogram", r)
	}
}

// Failed requests are counted by status and shown, not dropped.
func TestRunShowsFailures(t *testing.T) {
	h := startBot(t, sim.Config{}, nil)
	h.Sim.SetFaults(sim.Faults{Send: sim.Fault{Kind: sim.FaultBadRequest, Next: 1}})
	code, out, errs := runTool(context.Background(), nil, "testbot", "--times", "3", "--url", h.URL(), "--json", "--budget", generous)
	if code != exitPass {
		t.Fatalf("exit %d; want 0 (the replies that came are within budget); stderr: %s", code, errs)
	}
	var r report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Sent != 3 || r.OK+r.Failed != 3 || r.Failed < 1 || len(r.Failures) == 0 || r.Failures[0].Status != "502" {
		t.Errorf("sent %d ok %d failed %d failures %+v; want 3 sent, a 502 among them", r.Sent, r.OK, r.Failed, r.Failures)
	}
}

func TestRunConnectionErrors(t *testing.T) {
	h := startBot(t, sim.Config{}, map[string]string{"SELFTEST_TOKEN": testToken})
	tokenless := startBot(t, sim.Config{}, map[string]string{"SELFTEST_TOKEN": ""})
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		wantErr string
	}{
		{"bot unreachable", nil, []string{"testbot", "--url", closedURL(t)}, "bot unreachable"},
		{"unknown group", map[string]string{"SELFTEST_TOKEN": testToken}, []string{"nogroup", "--url", h.URL()}, `no test group "nogroup" at ` + h.URL() + ` (see the bot's SIGNAL_GROUPS and TEST_GROUPS)`},
		{"no token", map[string]string{"SELFTEST_TOKEN": ""}, []string{"testbot", "--url", h.URL()}, "refused the token"},
		{"a bot without a token", map[string]string{"SELFTEST_TOKEN": ""}, []string{"testbot", "--url", tokenless.URL()}, "serves /_override only with SELFTEST_TOKEN"},
		{"wrong token", map[string]string{"SELFTEST_TOKEN": "nope"}, []string{"testbot", "--url", h.URL()}, "refused the token"},
		{"usage", nil, []string{"--times", "x", "testbot"}, "flag -times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runTool(context.Background(), tt.env, tt.args...)
			if code != exitUsage {
				t.Fatalf("exit %d; want 2\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if last := lines[len(lines)-1]; !strings.Contains(last, tt.wantErr) {
				t.Errorf("stderr = %q; want a line about %q", errs, tt.wantErr)
			}
		})
	}
	code, _, errs := runTool(context.Background(), map[string]string{"SELFTEST_TOKEN": testToken}, "testbot", "--times", "1", "--url", h.URL(), "--budget", generous)
	if code != exitPass {
		t.Errorf("with the token: exit %d; want 0; stderr: %s", code, errs)
	}
}

// A run interrupted mid-way (Ctrl-C) still deletes its override.
func TestRunCancelledRestoresCooldown(t *testing.T) {
	h := startBot(t, sim.Config{Latency: sim.Latency{Send: 50 * time.Millisecond}}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := runTool(ctx, nil, "testbot", "--text", "!kot", "--times", "50", "--url", h.URL())
		done <- result{code, out, errs}
	}()
	for i := 0; len(h.Sim.Sent()) == 0; i++ {
		if i > 4000 {
			t.Fatal("no reply sent")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(overrides(h)) != 1 {
		t.Errorf("overrides during the run = %v; want one", overrides(h))
	}
	cancel()
	r := <-done
	if r.code != exitInterrupted || !strings.Contains(r.out, "(interrupted)") {
		t.Errorf("exit %d; want %d and a report marked interrupted\nstdout:\n%s\nstderr:\n%s", r.code, exitInterrupted, r.out, r.err)
	}
	assertCooldownRestored(t, h)
}

// An override whose tool never deletes it (killed) expires by itself.
func TestExpiredOverrideRestoresCooldown(t *testing.T) {
	h := startBot(t, sim.Config{}, nil)
	if got := kotStatus(t, h); got != 0 {
		t.Fatalf("first !kot: status %d; want a reply", got)
	}
	c := newClient(h.URL(), testToken, 1)
	defer c.close()
	if _, err := c.putOverride(context.Background(), "testbot", "kot", time.Second); err != nil {
		t.Fatal(err)
	}
	for i := 0; len(overrides(h)) != 0; i++ {
		if i > 500 {
			t.Fatalf("override still active: %v", overrides(h))
		}
		time.Sleep(20 * time.Millisecond)
	}
	assertCooldownRestored(t, h)
}

// closedURL is the URL of a loopback port nobody listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	return "http://" + testkit.FreeAddr(t)
}

// The closed loop waits out the bot's rate limit on /_selftest instead of
// counting its refusals as failed replies; the open loop shows them as 429.
func TestRunUnderRateLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                      string
		args                      []string
		wantOK, wantFailedAtLeast int
		wantThrottled             bool
	}{
		// One token a second: the second selftest of a closed loop finds the
		// bucket empty unless the first took a whole second, which even a
		// loaded machine does not take.
		{"closed loop", []string{"--times", "3"}, 3, 0, true},
		{"open loop", []string{"--rate", "400", "--duration", "100ms"}, 0, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rate := "1"
			if !tt.wantThrottled {
				rate = "20"
			}
			h := startBot(t, sim.Config{}, map[string]string{"SELFTEST_RATE": rate})
			args := append([]string{"testbot", "--json", "--url", h.URL(), "--budget", generous}, tt.args...)
			_, out, errs := runTool(context.Background(), nil, args...)
			var r report
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v; stderr: %s", err, errs)
			}
			if tt.wantOK > 0 && r.OK != tt.wantOK || r.Failed < tt.wantFailedAtLeast || (r.Throttled > 0) != tt.wantThrottled {
				t.Errorf("ok %d failed %d throttled %d failures %+v; want ok %d, failed ≥ %d, throttled %v",
					r.OK, r.Failed, r.Throttled, r.Failures, tt.wantOK, tt.wantFailedAtLeast, tt.wantThrottled)
			}
			if l := overrides(h); len(l) != 0 {
				t.Errorf("overrides after the run = %v; want none", l)
			}
		})
	}
}

// testToken is a SELFTEST_TOKEN of the least length the bot accepts.
const testToken = "s3cret-s3cret-s3cret-s3cret-s3cr"
