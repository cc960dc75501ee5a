package app_test

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// omExemplar is one exemplar of an OpenMetrics sample line:
// name{labels} value # {exemplar labels} value [timestamp].
type omExemplar struct {
	metric  string            // the sample's name, e.g. signal_bot_own_ms_bucket
	labels  map[string]string // the sample's labels
	exLabel map[string]string // the exemplar's labels: trace_id, span_id
	value   float64           // the exemplar's value
}

// scrapeOpenMetrics GETs /metrics asking for OpenMetrics, and returns the body
// and its Content-Type.
func scrapeOpenMetrics(t *testing.T, h *botest.Harness, accept string) (string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.URL()+"/metrics", nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s, %v", res.Status, err)
	}
	return string(body), res.Header.Get("Content-Type")
}

// parseExemplars returns every exemplar in an OpenMetrics exposition. It
// fails the test on a sample line with an exemplar it cannot read.
func parseExemplars(t *testing.T, body string) []omExemplar {
	t.Helper()
	var out []omExemplar
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "#") || !strings.Contains(line, " # {") {
			continue
		}
		sample, ex, _ := strings.Cut(line, " # ")
		e, err := parseExemplarLine(sample, ex)
		if err != nil {
			t.Fatalf("exemplar line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

func parseExemplarLine(sample, ex string) (omExemplar, error) {
	var e omExemplar
	name, rest, ok := strings.Cut(sample, "{")
	if !ok {
		return e, fmt.Errorf("no labels")
	}
	e.metric = name
	labels, rest, err := parseLabels(rest)
	if err != nil {
		return e, err
	}
	e.labels = labels
	if _, err := strconv.ParseFloat(strings.Fields(rest)[0], 64); err != nil {
		return e, fmt.Errorf("sample value: %w", err)
	}
	exLabels, rest, err := parseLabels(strings.TrimPrefix(ex, "{"))
	if err != nil {
		return e, fmt.Errorf("exemplar: %w", err)
	}
	e.exLabel = exLabels
	f := strings.Fields(rest)
	if len(f) < 1 || len(f) > 2 {
		return e, fmt.Errorf("exemplar: want a value and an optional timestamp, got %q", rest)
	}
	if e.value, err = strconv.ParseFloat(f[0], 64); err != nil {
		return e, fmt.Errorf("exemplar value: %w", err)
	}
	return e, nil
}

// parseLabels reads name="value",… up to the closing brace and returns what
// follows it. Values are unescaped (\\, \", \n).
func parseLabels(s string) (map[string]string, string, error) {
	labels := map[string]string{}
	for {
		s = strings.TrimPrefix(s, ",")
		if strings.HasPrefix(s, "}") {
			return labels, s[1:], nil
		}
		name, rest, ok := strings.Cut(s, `="`)
		if !ok {
			return nil, "", fmt.Errorf("label without a quoted value in %q", s)
		}
		var v strings.Builder
		i := 0
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				if rest[i] == 'n' {
					v.WriteByte('\n')
					continue
				}
			}
			v.WriteByte(rest[i])
		}
		if i == len(rest) {
			return nil, "", fmt.Errorf("unterminated value of %s", name)
		}
		labels[name] = v.String()
		s = rest[i+1:]
	}
}

// exemplarFor returns the exemplar of metric with command whose trace_id is id.
func exemplarFor(exs []omExemplar, metric, command, id string) (omExemplar, bool) {
	for _, e := range exs {
		if e.metric == metric && e.labels["command"] == command && e.exLabel["trace_id"] == id {
			return e, true
		}
	}
	return omExemplar{}, false
}

const openMetricsAccept = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"

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
			body, ctype := scrapeOpenMetrics(t, h, openMetricsAccept)
			if !strings.HasPrefix(ctype, "application/openmetrics-text") || !strings.HasSuffix(strings.TrimSpace(body), "# EOF") {
				t.Fatalf("Content-Type %q, body ending %q; want OpenMetrics", ctype, body[max(0, len(body)-20):])
			}
			exs := parseExemplars(t, body)
			for _, tc := range []struct {
				metric string
				value  float64
			}{{"signal_bot_own_ms_bucket", b.OwnMS}, {"signal_bot_round_trip_ms_bucket", b.RoundTripMS}} {
				e, ok := exemplarFor(exs, tc.metric, "pomoc", b.TraceID)
				if ok != tt.want {
					t.Errorf("%s exemplar with trace_id %s: found %v; want %v (exemplars %+v)", tc.metric, b.TraceID, ok, tt.want, exs)
					continue
				}
				if ok && (e.value != tc.value || len(e.exLabel["span_id"]) != 16) {
					t.Errorf("%s exemplar = %+v; want value %v and the root's span_id", tc.metric, e, tc.value)
				}
			}
			classic, ctype := scrapeOpenMetrics(t, h, "")
			if !strings.HasPrefix(ctype, "text/plain") || strings.Contains(classic, "trace_id") {
				t.Errorf("without OpenMetrics: Content-Type %q, trace_id in body %v; want text/plain without exemplars",
					ctype, strings.Contains(classic, "trace_id"))
			}
		})
	}
}

// The exemplar's trace is one Jaeger returns: scrape with the OpenMetrics
// Accept header, parse the exemplar, fetch its trace id from the real Jaeger.
func TestExemplarTraceInJaeger(t *testing.T) {
	otlp, query := jaegerURLs(t)
	t.Cleanup(http.DefaultClient.CloseIdleConnections)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", otlp)
	t.Setenv("OTEL_TRACES_SAMPLER", "always_on")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "100")
	t.Setenv("OTEL_SERVICE_NAME", "signal-bot-exemplar-test")
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	b := h.Selftest("!pomoc")
	body, _ := scrapeOpenMetrics(t, h, openMetricsAccept)
	e, ok := exemplarFor(parseExemplars(t, body), "signal_bot_own_ms_bucket", "pomoc", b.TraceID)
	if !ok {
		t.Fatalf("no own_ms exemplar with trace_id %s in:\n%s", b.TraceID, body)
	}
	spans := fetchTrace(t, query, e.exLabel["trace_id"], 6)
	var root jspan
	for _, s := range spans {
		if s.parent() == "" {
			root = s
		}
	}
	if root.OperationName != "frame" || root.SpanID != e.exLabel["span_id"] {
		t.Errorf("Jaeger's root span of %s = %q %s; want frame %s, the exemplar's span_id", b.TraceID, root.OperationName, root.SpanID, e.exLabel["span_id"])
	}
}
