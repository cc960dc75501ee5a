package main

import (
	"math"
	"time"

	"signal-bot/tool/latency/internal/stats"
)

// histogramBuckets is the number of linear buckets of the own_ms histogram.
const histogramBuckets = 10

// report is what a run found; the text report and --json show the same.
type report struct {
	Group       string         `json:"group"`
	Text        string         `json:"text"`
	URL         string         `json:"url"`
	Mode        string         `json:"mode"` // "closed" or "open"
	Times       int            `json:"times,omitempty"`
	RatePerS    float64        `json:"rate_per_s,omitempty"`
	DurationS   float64        `json:"duration_s,omitempty"`
	Inflight    int            `json:"inflight,omitempty"`
	Planned     int            `json:"planned"`
	Sent        int            `json:"sent"`
	OK          int            `json:"ok"`
	Failed      int            `json:"failed"`
	Throttled   int            `json:"throttled"` // closed loop: refusals by SELFTEST_RATE, sent again
	Failures    []failure      `json:"failures"`
	ElapsedS    float64        `json:"elapsed_s"`
	Interrupted bool           `json:"interrupted"`
	Fields      fields         `json:"fields"`
	Histogram   []stats.Bucket `json:"own_ms_histogram"`
	Budget      budget         `json:"budget"`
	Pace        paceInfo       `json:"pace"`
	// Waited is how many replies waited in the bot for the send budget
	// (send_wait_ms above 0).
	Waited int `json:"waited"`
}

// fields summarises every field of the timing block, and the tool's own HTTP
// round trip (timed from the intended send time in the open loop).
type fields struct {
	OwnMS      stats.Summary `json:"own_ms"`
	QueueMS    stats.Summary `json:"queue_ms"`
	DispatchMS stats.Summary `json:"dispatch_ms"`
	HandlerMS  stats.Summary `json:"handler_ms"`
	SendMS     stats.Summary `json:"send_ms"`
	UpstreamMS stats.Summary `json:"upstream_ms"`
	// SendWaitMS is the part of own_ms each reply waited for the send budget;
	// OwnLessWaitMS is own_ms without it, the code's own time.
	SendWaitMS    stats.Summary `json:"send_wait_ms"`
	OwnLessWaitMS stats.Summary `json:"own_ms_less_send_wait"`
	RoundTripMS   stats.Summary `json:"round_trip_ms"`
	HTTPMS        stats.Summary `json:"http_ms"`
}

// namedSummary is one row of the text report.
type namedSummary struct {
	name string
	stats.Summary
}

// rows lists the fields in the report's order.
func (f fields) rows() []namedSummary {
	return []namedSummary{
		{"own_ms", f.OwnMS}, {"queue_ms", f.QueueMS}, {"dispatch_ms", f.DispatchMS}, {"handler_ms", f.HandlerMS},
		{"send_ms", f.SendMS}, {"upstream_ms", f.UpstreamMS}, {"send_wait_ms", f.SendWaitMS},
		{"round_trip_ms", f.RoundTripMS}, {"http_ms", f.HTTPMS},
	}
}

// budget is the verdict: own_ms p95 at or under BudgetMS passes. With no
// reply there is no p95 (null) and the run fails.
type budget struct {
	Field    string   `json:"field"`
	Quantile string   `json:"quantile"`
	ValueMS  *float64 `json:"value_ms"`
	BudgetMS float64  `json:"budget_ms"`
	Pass     bool     `json:"pass"`
}

// newReport summarises a snapshot of a run with options o.
func newReport(o options, s snapshot, interrupted bool) report {
	r := report{
		Group: o.group, Text: o.text, URL: o.url, Mode: "closed", Planned: o.planned(),
		Sent: s.sent, OK: len(s.ok), Failed: s.nFailed, Throttled: s.throttled, Failures: s.failures,
		ElapsedS: s.elapsed.Seconds(), Interrupted: interrupted,
		Budget: budget{Field: "own_ms", Quantile: "p95", BudgetMS: o.budgetMS},
	}
	if r.Failures == nil {
		r.Failures = []failure{}
	}
	if o.openLoop() {
		r.Mode, r.RatePerS, r.DurationS, r.Inflight = "open", o.rate, o.duration.Seconds(), o.inflight
	} else {
		r.Times = o.times
	}
	col := func(get func(timing) float64) []float64 {
		v := make([]float64, len(s.ok))
		for i, t := range s.ok {
			v[i] = get(t)
		}
		return v
	}
	own := col(func(t timing) float64 { return t.OwnMS })
	r.Fields = fields{
		OwnMS:      stats.Summarize(own),
		QueueMS:    stats.Summarize(col(func(t timing) float64 { return t.QueueMS })),
		DispatchMS: stats.Summarize(col(func(t timing) float64 { return t.DispatchMS })),
		HandlerMS:  stats.Summarize(col(func(t timing) float64 { return t.HandlerMS })),
		SendMS:     stats.Summarize(col(func(t timing) float64 { return t.SendMS })),
		UpstreamMS: stats.Summarize(col(func(t timing) float64 { return t.UpstreamMS })),
		SendWaitMS: stats.Summarize(col(func(t timing) float64 { return t.SendWaitMS })),
		OwnLessWaitMS: stats.Summarize(col(func(t timing) float64 {
			return math.Round((t.OwnMS-t.SendWaitMS)*1000) / 1000
		})),
		RoundTripMS: stats.Summarize(col(func(t timing) float64 { return t.RoundTripMS })),
		HTTPMS:      stats.Summarize(col(func(t timing) float64 { return t.HTTPMS })),
	}
	for _, t := range s.ok {
		if t.SendWaitMS > 0 {
			r.Waited++
		}
	}
	r.Pace = paceInfo{Mode: o.pace}
	r.Histogram = stats.Histogram(own, histogramBuckets)
	if r.Histogram == nil {
		r.Histogram = []stats.Bucket{}
	}
	if len(own) > 0 {
		p95 := r.Fields.OwnMS.P95
		r.Budget.ValueMS, r.Budget.Pass = &p95, p95 <= o.budgetMS
	}
	return r
}

// elapsed is the run's wall time.
func (r report) elapsed() time.Duration { return time.Duration(r.ElapsedS * float64(time.Second)) }
