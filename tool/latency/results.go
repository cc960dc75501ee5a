package main

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Failure labels for requests the bot never answered with a status.
const (
	labelNoAnswer  = "no answer" // connection refused, reset, …
	labelTimeout   = "timeout"   // --timeout passed
	labelCancelled = "cancelled" // the run was interrupted while it waited
	labelSkipped   = "skipped"   // open loop: due while --inflight requests were out
	skippedExample = "in-flight limit reached; not sent"
)

// failure counts the requests that failed one way: an HTTP status ("503") or
// one of the labels above, with the first error as an example.
type failure struct {
	Status  string `json:"status"`
	Count   int    `json:"count"`
	Example string `json:"example"`
}

// results gathers one run's replies and failures. It is safe for concurrent
// use.
type results struct {
	mu     sync.Mutex
	start  time.Time
	sent   int
	ok     []timing
	sumMS  float64 // of the ok replies' http_ms
	thrott int     // closed loop: refusals by the bot's rate limit, sent again
	failed map[string]*failure
}

func newResults() *results {
	return &results{start: time.Now(), failed: map[string]*failure{}}
}

// startNow marks the start of the sending, which the elapsed time and the
// open loop's rest are counted from.
func (r *results) startNow() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.start = time.Now()
	return r.start
}

// started is the start of the sending.
func (r *results) started() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.start
}

// begin counts a request as sent.
func (r *results) begin() {
	r.mu.Lock()
	r.sent++
	r.mu.Unlock()
}

// add records the outcome of one sent request that took took.
func (r *results) add(t timing, took time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.fail(failLabel(err), err.Error())
		return
	}
	t.HTTPMS = float64(took) / float64(time.Millisecond)
	r.ok = append(r.ok, t)
	r.sumMS += t.HTTPMS
}

// throttle counts a refusal by the bot's rate limit that the closed loop
// answers by sending the request again.
func (r *results) throttle() {
	r.mu.Lock()
	r.thrott++
	r.mu.Unlock()
}

// skip counts a request that was due but not sent.
func (r *results) skip() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail(labelSkipped, skippedExample)
}

func (r *results) fail(label, example string) {
	f := r.failed[label]
	if f == nil {
		f = &failure{Status: label, Example: example}
		r.failed[label] = f
	}
	f.Count++
}

// failLabel sorts an error into its failure label.
func failLabel(err error) string {
	switch {
	case statusOf(err) != 0:
		return strconv.Itoa(statusOf(err))
	case errors.Is(err, context.DeadlineExceeded):
		return labelTimeout
	case errors.Is(err, context.Canceled):
		return labelCancelled
	}
	return labelNoAnswer
}

// snapshot is a consistent copy of the results so far.
type snapshot struct {
	elapsed   time.Duration
	sent      int
	ok        []timing
	failures  []failure // by status
	nFailed   int
	throttled int
}

func (r *results) snapshot() snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := snapshot{elapsed: time.Since(r.start), sent: r.sent, ok: slices.Clone(r.ok), throttled: r.thrott}
	for _, f := range r.failed {
		s.failures = append(s.failures, *f)
		s.nFailed += f.Count
	}
	slices.SortFunc(s.failures, func(a, b failure) int { return cmp.Compare(a.Status, b.Status) })
	return s
}

// meanReply is the mean time of a reply so far; false before the first.
func (r *results) meanReply() (time.Duration, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.ok) == 0 {
		return 0, false
	}
	return time.Duration(r.sumMS / float64(len(r.ok)) * float64(time.Millisecond)), true
}

// answered is the number of requests that ended, either way.
func (r *results) answered() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.ok)
	for label, f := range r.failed {
		if label != labelSkipped {
			n += f.Count
		}
	}
	return n
}

// unreachable tells that nothing succeeded and every request failed without
// an answer from the bot.
func (s snapshot) unreachable() bool {
	if len(s.ok) > 0 || len(s.failures) == 0 {
		return false
	}
	for _, f := range s.failures {
		if f.Status != labelNoAnswer {
			return false
		}
	}
	return true
}
