package botest

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// Exemplar is one exemplar of an OpenMetrics sample line:
// name{labels} value # {exemplar labels} value [timestamp].
type Exemplar struct {
	Metric  string            // the sample's name, e.g. signal_bot_own_ms_bucket
	Labels  map[string]string // the sample's labels
	ExLabel map[string]string // the exemplar's labels: trace_id, span_id
	Value   float64           // the exemplar's value
}

// ScrapeOpenMetrics GETs /metrics asking for OpenMetrics, and returns the body
// and its Content-Type.
func (h *Harness) ScrapeOpenMetrics(accept string) (string, string) {
	h.T.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.URL()+"/metrics", nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.T.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		h.T.Fatalf("GET /metrics: %s, %v", res.Status, err)
	}
	return string(body), res.Header.Get("Content-Type")
}

// Exemplars returns every exemplar in an OpenMetrics exposition. It
// fails the test on a sample line with an exemplar it cannot read.
func Exemplars(t testing.TB, body string) []Exemplar {
	t.Helper()
	var out []Exemplar
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

func parseExemplarLine(sample, ex string) (Exemplar, error) {
	var e Exemplar
	name, rest, ok := strings.Cut(sample, "{")
	if !ok {
		return e, fmt.Errorf("no labels")
	}
	e.Metric = name
	labels, rest, err := parseLabels(rest)
	if err != nil {
		return e, err
	}
	e.Labels = labels
	if _, err := strconv.ParseFloat(strings.Fields(rest)[0], 64); err != nil {
		return e, fmt.Errorf("sample value: %w", err)
	}
	exLabels, rest, err := parseLabels(strings.TrimPrefix(ex, "{"))
	if err != nil {
		return e, fmt.Errorf("exemplar: %w", err)
	}
	e.ExLabel = exLabels
	f := strings.Fields(rest)
	if len(f) < 1 || len(f) > 2 {
		return e, fmt.Errorf("exemplar: want a value and an optional timestamp, got %q", rest)
	}
	if e.Value, err = strconv.ParseFloat(f[0], 64); err != nil {
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

// ExemplarFor returns the exemplar of metric with command whose trace_id is id.
func ExemplarFor(exs []Exemplar, metric, command, id string) (Exemplar, bool) {
	for _, e := range exs {
		if e.Metric == metric && e.Labels["command"] == command && e.ExLabel["trace_id"] == id {
			return e, true
		}
	}
	return Exemplar{}, false
}

// OpenMetricsAccept is a scraper's Accept header that asks for OpenMetrics.
const OpenMetricsAccept = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
