package metrics_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// A reply's own_ms and round_trip_ms carry its trace id as an exemplar when
// the scraper asks for OpenMetrics, so a slow bucket links to its trace; a
// frame the sampler dropped (never exported) links nowhere, so it gets none;
// and the classic text format stays as it was.
func TestMetricsExemplars(t *testing.T) {
	tests := []struct {
		sampler string
		want    bool
	}{
		{"always_on", true},
		{"always_off", false},
	}
	for _, tt := range tests {
		t.Run(tt.sampler, func(t *testing.T) {
			t.Setenv("OTEL_TRACES_SAMPLER", tt.sampler)
			h := botest.New(t, sim.Config{Lossless: true}, nil)
			h.Start()
			b := h.Selftest("!pomoc")
			body, ctype := h.ScrapeOpenMetrics(botest.OpenMetricsAccept)
			if !strings.HasPrefix(ctype, "application/openmetrics-text") || !strings.HasSuffix(strings.TrimSpace(body), "# EOF") {
				t.Fatalf("Content-Type %q, body ending %q; want OpenMetrics", ctype, body[max(0, len(body)-20):])
			}
			exs := botest.Exemplars(t, body)
			for _, tc := range []struct {
				metric string
				value  float64
			}{{"signal_bot_own_ms_bucket", b.OwnMS}, {"signal_bot_round_trip_ms_bucket", b.RoundTripMS}} {
				e, ok := botest.ExemplarFor(exs, tc.metric, "pomoc", b.TraceID)
				if ok != tt.want {
					t.Errorf("%s exemplar with trace_id %s: found %v; want %v (exemplars %+v)", tc.metric, b.TraceID, ok, tt.want, exs)
					continue
				}
				if ok && (e.Value != tc.value || len(e.ExLabel["span_id"]) != 16) {
					t.Errorf("%s exemplar = %+v; want value %v and the root's span_id", tc.metric, e, tc.value)
				}
			}
			classic, ctype := h.ScrapeOpenMetrics("")
			if !strings.HasPrefix(ctype, "text/plain") || strings.Contains(classic, "trace_id") {
				t.Errorf("without OpenMetrics: Content-Type %q, trace_id in body %v; want text/plain without exemplars",
					ctype, strings.Contains(classic, "trace_id"))
			}
		})
	}
}
