package botest

import (
	"net/http"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Scrape reads the bot's /metrics and parses it as Prometheus text.
func (h *Harness) Scrape() map[string]*dto.MetricFamily {
	h.T.Helper()
	return ScrapeURL(h.T, h.URL())
}

// ScrapeURL reads base's /metrics (a bot's base URL) and parses it as
// Prometheus text.
func ScrapeURL(t testing.TB, base string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("/metrics is not Prometheus text: %v", err)
	}
	return fams
}

// Value sums a family's samples whose labels include want (a histogram's
// sample counts); -1 if the family is not there at all.
func Value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
	var sum float64
	for _, m := range f.Metric {
		if !hasLabels(m, want) {
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

func hasLabels(m *dto.Metric, want map[string]string) bool {
	labels := map[string]string{}
	for _, l := range m.Label {
		labels[l.GetName()] = l.GetValue()
	}
	for k, v := range want {
		if labels[k] != v {
			return false
		}
	}
	return true
}
