package app_test

import (
	"net/http"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// scrape reads /metrics and parses it as Prometheus text.
func scrape(t *testing.T, h *botest.Harness) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(h.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	return parseMetrics(t, res)
}

// parseMetrics parses a /metrics answer as Prometheus text.
func parseMetrics(t *testing.T, res *http.Response) map[string]*dto.MetricFamily {
	t.Helper()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("/metrics is not Prometheus text: %v", err)
	}
	return fams
}

// value sums a family's samples whose labels include want.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	var sum float64
	f := fams[name]
	if f == nil {
		return -1
	}
	for _, m := range f.Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			match = match && labels[k] == v
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

func TestMetricsMoveWithTraffic(t *testing.T) {
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"COOLDOWNS": "kot=1h"})
	h.Start()
	before := scrape(t, h)
	if got := value(before, "signal_bot_websocket_connected", nil); got != 1 {
		t.Errorf("signal_bot_websocket_connected = %v; want 1", got)
	}
	h.Say(alice, "", "!pomoc")
	h.Say(alice, "", "!kot")
	h.Say(alice, "", "!kot") // cooldown
	h.WaitSent(3)
	h.Up.SetFault(fakeup.TargetCatSearch, fakeup.Fault5xx)
	h.Say(bob, "", "!cat")
	h.Sim.SetFaults(sim.Faults{Send: sim.Fault{Kind: sim.FaultRateLimit, Next: 1}})
	h.Say(bob, "", "!pomoc")
	h.WaitIdle(5)
	after := scrape(t, h)
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
		if got := value(after, tt.name, tt.labels); got != tt.want {
			t.Errorf("%s%v = %v; want %v", tt.name, tt.labels, got, tt.want)
		}
	}
}
