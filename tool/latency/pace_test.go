package main

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"signal-bot/pkg/sim"
)

// Against a bot whose test chat has a small send budget (5 replies at once,
// one more a second: the default 30/60s scaled down so the test takes
// seconds, not a minute), 8 requests are paced to fit it: the tool says so
// and at what rate, no reply waits in the bot, and own_ms stays within
// 500 ms. With --pace off the later replies wait about a second each in the
// bot: the wait is reported on its own line, own_ms (which counts it) is over
// 500 ms, and the exit status says so, as before.
func TestRunPacesToTheSendBudget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pace       string
		wantCode   int
		wantStderr string
		wantOut    []string
		wantWaited bool
	}{
		{paceOn, exitPass,
			"latency: pacing to testbot's send budget, 5 replies at once, then one every 1s (SEND_BUDGET_CHAT 5/5s); 5 free now, so 8 requests take about 3s",
			[]string{"requests held", "for the send budget (5 per 5s), so no reply waited for it", "PASS"}, false},
		{paceOff, exitOverBudget,
			"latency: --pace off: replies beyond testbot's send budget, 5 replies at once, then one every 1s (SEND_BUDGET_CHAT 5/5s), wait in the bot",
			[]string{"replies waited in the bot for the send budget (send_wait_ms p95 ", "own_ms counts that wait; without it own_ms p95 is ", "FAIL"}, true},
	}
	for _, tt := range tests {
		t.Run("pace "+tt.pace, func(t *testing.T) {
			t.Parallel()
			h := startBot(t, sim.Config{}, map[string]string{"SEND_BUDGET": "on", "SEND_BUDGET_CHAT": "5/5s"})
			code, out, errs := runTool(context.Background(), nil, "testbot", "--times", "8", "--budget", "500ms", "--pace", tt.pace, "--url", h.URL())
			if code != tt.wantCode {
				t.Fatalf("exit %d; want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errs)
			}
			if !strings.Contains(errs, tt.wantStderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantStderr, errs)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			m := regexp.MustCompile(`(?m)^send_wait_ms +8 .* (\d+\.\d{3})$`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no send_wait_ms row of 8 replies:\n%s", out)
			}
			if waitMax, _ := strconv.ParseFloat(m[1], 64); (waitMax > 0) != tt.wantWaited {
				t.Errorf("send_wait_ms max %v; want a wait: %v\n%s", waitMax, tt.wantWaited, out)
			}
			t.Logf("stderr:\n%s\nstdout:\n%s", errs, out)
		})
	}
}
