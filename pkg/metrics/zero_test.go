package metrics_test

import (
	"maps"
	"slices"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// series reports whether fams has a sample of name with exactly labels, and
// its value.
func series(fams map[string]*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		if maps.Equal(got, labels) {
			return m.GetCounter().GetValue(), true
		}
	}
	return 0, false
}

// Every counter an operator may alert on is on /metrics from the start, at
// 0, with each label set it can take: increase() and rate() see nothing of
// a series before its first sample, so signal_bot_panics_total appearing
// only with the first panic would never alert on it.
func TestCountersStartAtZero(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"POOL_SIZE_CAT": "1"})
	h.Start()
	want := map[string][]map[string]string{
		"signal_bot_panics_total": {{"command": "pomoc"}, {"command": "ja"}, {"command": "cat"}, {"command": "kot"},
			{"command": "unknown"}, {"command": "none"}, {"command": "background:receive"}, {"command": "background:members"},
			{"command": "background:groups"}, {"command": "background:schedule"}, {"command": "background:typing"},
			{"command": "background:refill_cat"}},
		"signal_bot_frames_ignored_total": {{"reason": "answer_in"}, {"reason": "own_send"}, {"reason": "owner_group"}, {"reason": "not_admin"},
			{"reason": "admin_in_group"}, {"reason": "off"}, {"reason": "paused"}, {"reason": "sender_too_long"}, {"reason": "frame_too_big"}},
		"signal_bot_replies_shed_total": {{"reason": "budget_chat"}, {"reason": "budget_attachments"}, {"reason": "paused"},
			{"reason": "quiet"}, {"reason": "cancelled"}},
		"signal_bot_scheduled_posts_total": {{"outcome": "served"}, {"outcome": "shed"}, {"outcome": "error"}, {"outcome": "dropped"},
			{"outcome": "skipped"}, {"outcome": "unrecorded"}},
		"signal_bot_send_errors_total":     {{"kind": "rate_limited"}, {"kind": "bad_request"}, {"kind": "unavailable"}, {"kind": "timeout"}, {"kind": "other"}},
		"signal_bot_upstream_errors_total": {{"command": "cat", "kind": "timeout"}, {"command": "kot", "kind": "status"}, {"command": "ja", "kind": "other"}},
		"signal_bot_state_errors_total":    {{"command": "pomoc"}, {"command": "kot"}},
		"signal_bot_replies_total": {{"command": "pomoc", "outcome": "error"}, {"command": "kot", "outcome": "served"},
			{"command": "cat", "outcome": "shed"}, {"command": "unknown", "outcome": "unknown"}},
		"signal_bot_frames_dropped_total": {{"reason": "queue_full"}, {"reason": "sender_queue"}, {"reason": "queue_bytes"}},
		"signal_bot_frames_skipped_total": {{"reason": "receipt"}, {"reason": "duplicate"}},
	}
	fams := h.Scrape()
	for _, name := range slices.Sorted(maps.Keys(want)) {
		for _, labels := range want[name] {
			if v, ok := series(fams, name, labels); !ok || v != 0 {
				t.Errorf("%s%v at start: present %v, value %v; want present at 0", name, labels, ok, v)
			}
		}
	}
	if _, ok := series(fams, "signal_bot_panics_total", map[string]string{"command": "background:refill_kot"}); ok {
		t.Error("background:refill_kot exported for a kot without a pool (POOL_SIZE_KOT=0)")
	}
}
