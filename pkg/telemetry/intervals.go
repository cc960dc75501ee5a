package telemetry

import (
	"cmp"
	"slices"
)

// interval is a half-open span of time [start, end) in Unix nanoseconds.
type interval struct {
	start, end int64
}

// clip keeps the part of each interval inside [lo, hi) and drops the empty
// ones. It reuses the backing array of ivs.
func clip(ivs []interval, lo, hi int64) []interval {
	out := ivs[:0]
	for _, iv := range ivs {
		iv.start = max(iv.start, lo)
		iv.end = min(iv.end, hi)
		if iv.end > iv.start {
			out = append(out, iv)
		}
	}
	return out
}

// unionLen returns the length of time covered by at least one interval, so
// overlapping intervals count once. It sorts ivs in place.
func unionLen(ivs []interval) int64 {
	slices.SortFunc(ivs, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	var total int64
	var cur interval
	started := false
	for _, iv := range ivs {
		if iv.end <= iv.start {
			continue
		}
		switch {
		case !started:
			cur, started = iv, true
		case iv.start > cur.end:
			total += cur.end - cur.start
			cur = iv
		case iv.end > cur.end:
			cur.end = iv.end
		}
	}
	if started {
		total += cur.end - cur.start
	}
	return total
}
