package stats

import (
	"slices"
	"strings"
	"testing"
)

func TestHistogram(t *testing.T) {
	tests := []struct {
		name       string
		values     []float64
		n          int
		wantCounts []int
		wantTail   bool
	}{
		{"empty", nil, 10, nil, false},
		{"one value", []float64{3}, 10, []int{1}, false},
		{"all equal", []float64{2, 2, 2}, 10, []int{3}, false},
		{"even spread", []float64{0, 1, 2, 3, 4}, 4, []int{1, 1, 1, 2}, false},
		{"max lands in the last bucket", []float64{0, 10}, 2, []int{1, 1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Histogram(tt.values, tt.n)
			var counts []int
			tail := false
			for _, b := range got {
				counts = append(counts, b.Count)
				tail = tail || b.Tail
			}
			if !slices.Equal(counts, tt.wantCounts) || tail != tt.wantTail {
				t.Errorf("Histogram(%v, %d) counts = %v tail %v; want %v tail %v", tt.values, tt.n, counts, tail, tt.wantCounts, tt.wantTail)
			}
		})
	}
}

// An outlier above p99 goes to a tail bucket, and every sample is counted.
func TestHistogramTail(t *testing.T) {
	values := make([]float64, 200)
	for i := range values {
		values[i] = float64(i % 10)
	}
	values[0], values[1] = 1000, 2000
	got := Histogram(values, 10)
	total := 0
	for _, b := range got {
		total += b.Count
	}
	last := got[len(got)-1]
	if !last.Tail || last.Count != 2 || last.To != 2000 {
		t.Errorf("last bucket = %+v; want a tail of 2 up to 2000", last)
	}
	if total != len(values) {
		t.Errorf("buckets hold %d samples; want %d", total, len(values))
	}
}

func TestWriteHistogram(t *testing.T) {
	var b strings.Builder
	if err := WriteHistogram(&b, []Bucket{{From: 0, To: 1, Count: 10}, {From: 1, To: 2, Count: 1}, {From: 2, To: 9, Count: 1, Tail: true}}, 20); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 3 || strings.Count(lines[0], "#") != 20 || strings.Count(lines[1], "#") != 2 || !strings.Contains(lines[2], "> p99") {
		t.Errorf("WriteHistogram wrote\n%s", b.String())
	}
}
