// Package stats summarises latency samples: nearest-rank percentiles, the
// summary line of one field and a small text histogram.
package stats

import (
	"math"
	"slices"
)

// Percentile returns the nearest-rank p-th percentile (0 < p ≤ 100) of
// sorted, which must be in ascending order: the smallest value such that at
// least p % of the samples are at or below it, always one of the samples.
// It returns NaN for no samples; p ≤ 0 gives the minimum.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	// The epsilon keeps p·n/100 that is an integer in exact arithmetic from
	// rounding up past it in floating point (99.9 % of 1000 is rank 999).
	rank := int(math.Ceil(p*float64(n)/100 - 1e-9))
	return sorted[min(max(rank, 1), n)-1]
}

// Summary is n, min, the nearest-rank p50, p90, p95, p99 and max of one field.
type Summary struct {
	N   int     `json:"n"`
	Min float64 `json:"min"`
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// Summarize returns the summary of values, which it does not modify. With no
// values it is the zero Summary (N is 0: there is nothing to report).
func Summarize(values []float64) Summary {
	if len(values) == 0 {
		return Summary{}
	}
	s := slices.Clone(values)
	slices.Sort(s)
	return Summary{
		N: len(s), Min: s[0], Max: s[len(s)-1],
		P50: Percentile(s, 50), P90: Percentile(s, 90), P95: Percentile(s, 95), P99: Percentile(s, 99),
	}
}
