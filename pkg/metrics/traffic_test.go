package metrics_test

import (
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

func TestMetricsMoveWithTraffic(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COOLDOWNS": "kot=1h"})
	h.Start()
	before := h.Scrape()
	if got := botest.Value(before, "signal_bot_websocket_connected", nil); got != 1 {
		t.Errorf("signal_bot_websocket_connected = %v; want 1", got)
	}
	h.Say(botest.Alice, "", "!pomoc")
	h.Say(botest.Alice, "", "!kot")
	h.Say(botest.Alice, "", "!kot") // cooldown
	h.WaitSent(3)
	h.Up.SetFault(fakeup.TargetCatSearch, fakeup.Fault5xx)
	h.Say(botest.Bob, "", "!cat")
	h.Sim.SetFaults(sim.Faults{Send: sim.Fault{Kind: sim.FaultRateLimit, Next: 1}})
	h.Say(botest.Bob, "", "!pomoc")
	h.WaitIdle(5)
	after := h.Scrape()
	tests := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"signal_bot_frames_received_total", nil, 5},
		{"signal_bot_frames_dropped_total", nil, 0},
		{"signal_bot_replies_total", map[string]string{"command": "kot", "outcome": "served"}, 1},
		{"signal_bot_replies_total", map[string]string{"command": "kot", "outcome": "cooldown"}, 1},
		{"signal_bot_replies_total", map[string]string{"command": "cat", "outcome": "error"}, 1},
		{"signal_bot_upstream_errors_total", map[string]string{"command": "cat", "kind": "status"}, 1},
		{"signal_bot_send_errors_total", map[string]string{"kind": "rate_limited"}, 1},
		{"signal_bot_own_ms", map[string]string{"command": "pomoc"}, 2},
		{"signal_bot_round_trip_ms", nil, 5},
		{"signal_bot_queue_depth", nil, 0},
		{"signal_bot_slots_busy", nil, 0},
		{"signal_bot_traces_evicted_total", nil, 0},
	}
	for _, tt := range tests {
		if got := botest.Value(after, tt.name, tt.labels); got != tt.want {
			t.Errorf("%s%v = %v; want %v", tt.name, tt.labels, got, tt.want)
		}
	}
}
