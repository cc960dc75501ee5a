package stats

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Bucket counts the samples in [From, To); the last linear bucket also holds
// To itself. A Tail bucket holds the samples above the p99 that the linear
// buckets span, so one outlier cannot squash the rest into a single bar.
type Bucket struct {
	From  float64 `json:"from"`
	To    float64 `json:"to"`
	Count int     `json:"count"`
	Tail  bool    `json:"tail,omitempty"`
}

// Histogram splits [min, p99] of values into at most n equal buckets and puts
// what lies above p99 into a tail bucket. Equal values give one bucket.
func Histogram(values []float64, n int) []Bucket {
	if len(values) == 0 || n < 1 {
		return nil
	}
	s := slices.Clone(values)
	slices.Sort(s)
	lo, hi := s[0], Percentile(s, 99)
	if hi == lo {
		n = 1
	}
	width := (hi - lo) / float64(n)
	out := make([]Bucket, n)
	for i := range out {
		out[i] = Bucket{From: lo + float64(i)*width, To: lo + float64(i+1)*width}
	}
	out[n-1].To = hi
	var tail *Bucket
	for _, v := range s {
		if v > hi {
			if tail == nil {
				out = append(out, Bucket{From: hi, To: s[len(s)-1], Tail: true})
				tail = &out[len(out)-1]
			}
			tail.Count++
			continue
		}
		i := n - 1
		if width > 0 {
			i = min(int((v-lo)/width), n-1)
		}
		out[i].Count++
	}
	return out
}

// WriteHistogram draws buckets as bars of at most width characters.
func WriteHistogram(w io.Writer, buckets []Bucket, width int) error {
	peak := 0
	for _, b := range buckets {
		peak = max(peak, b.Count)
	}
	for _, b := range buckets {
		bar := 0
		if peak > 0 {
			bar = (b.Count*width + peak - 1) / peak // any sample shows at least one mark
		}
		label := fmt.Sprintf("%10.3f – %10.3f", b.From, b.To)
		if b.Tail {
			label = fmt.Sprintf("> p99 … %10.3f", b.To)
			label = fmt.Sprintf("%23s", label)
		}
		if _, err := fmt.Fprintf(w, "  %s  %-*s %d\n", label, width, strings.Repeat("#", bar), b.Count); err != nil {
			return fmt.Errorf("write histogram: %w", err)
		}
	}
	return nil
}
