package signalapi_test

import (
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// Failures of POST /v2/send: only the empty-bodied 500 (the request never
// reached signal-cli) is retried; a 429, a 400 or a hang may have been
// delivered and are not. Each ends with its slot free and the error counted.
func TestSendFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		fault      sim.Fault
		wantFaults int64  // requests the fault hit
		wantSent   int    // of the first frame: 1 if its reply got through
		wantKind   string // signal_bot_send_errors_total kind; "" none
		pause      string // RATE_LIMIT_PAUSE; "" the default
	}{
		// A 429 pauses every send (safety_test.go); a short pause, within SEND_WAIT_MAX,
		// lets the next reply wait for its end and go.
		{"429 not retried", sim.Fault{Kind: sim.FaultRateLimit, Next: 1}, 1, 0, "rate_limited", "1s"},
		{"400 not retried", sim.Fault{Kind: sim.FaultBadRequest, Next: 1}, 1, 0, "bad_request", ""},
		{"hang ends at SEND_TIMEOUT, not retried", sim.Fault{Kind: sim.FaultHang, Next: 1}, 1, 0, "timeout", ""},
		{"empty 500 retried once", sim.Fault{Kind: sim.FaultServerError, Next: 1}, 1, 1, "", ""},
		{"empty 500 every time: 3 attempts", sim.Fault{Kind: sim.FaultServerError, Next: 3}, 3, 0, "unavailable", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"SEND_TIMEOUT": "2s"} // ample for a healthy send under -race; a hang ends at it
			if tt.pause != "" {
				env["RATE_LIMIT_PAUSE"] = tt.pause
			}
			h := botest.New(t, sim.Config{Lossless: true, Faults: sim.Faults{Send: tt.fault}}, env)
			h.Start()
			h.Say(botest.Alice, "", "!pomoc")
			h.WaitIdle(1)
			st := h.Sim.Stats()
			if st.FaultsInjected != tt.wantFaults || len(h.Sim.Sent()) != tt.wantSent {
				t.Errorf("faults injected %d, replies %d; want %d, %d", st.FaultsInjected, len(h.Sim.Sent()), tt.wantFaults, tt.wantSent)
			}
			fams := h.Scrape()
			for _, kind := range []string{"rate_limited", "bad_request", "timeout", "unavailable", "other"} {
				want := 0.0
				if kind == tt.wantKind {
					want = 1
				}
				if got := max(botest.Value(fams, "signal_bot_send_errors_total", map[string]string{"kind": kind}), 0); got != want {
					t.Errorf("signal_bot_send_errors_total{kind=%q} = %v; want %v", kind, got, want)
				}
			}
			h.Say(botest.Bob, "", "!pomoc") // the fault is spent: the next reply goes through
			if next := h.WaitSent(tt.wantSent + 1)[tt.wantSent]; next.Recipients[0] != botest.Bob {
				t.Errorf("next reply went to %v; want bob", next.Recipients)
			}
			h.WaitIdle(2)
		})
	}
}
