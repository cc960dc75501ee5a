package stats

import (
	"math"
	"testing"
)

func TestPercentile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(i + 1)
	}
	thousand := make([]float64, 1000)
	for i := range thousand {
		thousand[i] = float64(i + 1)
	}
	tests := []struct {
		name   string
		sorted []float64
		p      float64
		want   float64
	}{
		{"n=1 p50", []float64{7}, 50, 7},
		{"n=1 p99", []float64{7}, 99, 7},
		{"n=1 p100", []float64{7}, 100, 7},
		{"n=2 p50 is the lower", []float64{1, 2}, 50, 1},
		{"n=2 p51 is the upper", []float64{1, 2}, 51, 2},
		{"n=10 p50", ten, 50, 5},
		{"n=10 p90", ten, 90, 9},
		{"n=10 p95 rounds the rank up", ten, 95, 10},
		{"n=10 p99", ten, 99, 10},
		{"n=10 p10", ten, 10, 1},
		{"n=10 p11", ten, 11, 2},
		{"n=20 p95 is the 19th", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, 95, 19},
		{"n=100 p99", hundred, 99, 99},
		{"n=100 p90", hundred, 90, 90},
		{"n=1000 p99.9 without float drift", thousand, 99.9, 999},
		{"n=1000 p95", thousand, 95, 950},
		{"p0 is the minimum", ten, 0, 1},
		{"ties p50", []float64{1, 2, 2, 2, 9}, 50, 2},
		{"ties p95", []float64{1, 2, 2, 2, 9}, 95, 9},
		{"all equal", []float64{4, 4, 4, 4}, 90, 4},
		{"the wikipedia vector p30", []float64{15, 20, 35, 40, 50}, 30, 20},
		{"the wikipedia vector p40", []float64{15, 20, 35, 40, 50}, 40, 20},
		{"the wikipedia vector p50", []float64{15, 20, 35, 40, 50}, 50, 35},
		{"the wikipedia vector p100", []float64{15, 20, 35, 40, 50}, 100, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Percentile(tt.sorted, tt.p); got != tt.want {
				t.Errorf("Percentile(%v, %v) = %v; want %v", tt.sorted, tt.p, got, tt.want)
			}
		})
	}
}

func TestPercentileEmpty(t *testing.T) {
	if got := Percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("Percentile(nil, 50) = %v; want NaN", got)
	}
}

func TestSummarize(t *testing.T) {
	values := []float64{5, 1, 4, 2, 3} // unsorted: Summarize sorts a copy
	got := Summarize(values)
	want := Summary{N: 5, Min: 1, P50: 3, P90: 5, P95: 5, P99: 5, Max: 5}
	if got != want {
		t.Errorf("Summarize(%v) = %+v; want %+v", values, got, want)
	}
	if values[0] != 5 {
		t.Errorf("Summarize sorted its argument: %v", values)
	}
	if got := Summarize(nil); got != (Summary{}) {
		t.Errorf("Summarize(nil) = %+v; want the zero Summary", got)
	}
}
