package fakeup

import (
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Fault is a failure the fake injects into every response of a target.
type Fault int

// The faults a target can be set to.
const (
	// FaultNone answers normally.
	FaultNone Fault = iota
	// FaultHang never answers: the handler blocks until the request's
	// context ends or the server is closed.
	FaultHang
	// Fault5xx answers 503 with a short text body.
	Fault5xx
	// FaultGarbageJSON answers 200 application/json with a truncated document.
	FaultGarbageJSON
	// FaultHugeBody streams 50 MB without a Content-Length (an API target
	// gets "[", whitespace and "]", which is valid JSON; a download target
	// gets a JPEG signature and zeros).
	FaultHugeBody
	// FaultSlowDrip sends the normal response one byte every 100 ms.
	FaultSlowDrip
	// FaultNotImage answers 200 with an HTML page; a download target still
	// declares Content-Type image/jpeg.
	FaultNotImage
)

var faultNames = [...]string{"none", "hang", "5xx", "garbage-json", "huge-body", "slow-drip", "not-image"}

// String returns the fault's short name.
func (f Fault) String() string {
	if f >= 0 && int(f) < len(faultNames) {
		return faultNames[f]
	}
	return fmt.Sprintf("Fault(%d)", int(f))
}

// Latency is the delay added before each response, per target.
type Latency struct {
	CatSearch, CatDownload, CommonsQuery, CommonsDownload time.Duration
}

// DefaultLatency returns the live figures measured for !cat: 386 ms for the
// search and 684 ms for the download. Commons was not measured; it reuses the
// same figures. Tests use the zero Latency.
func DefaultLatency() Latency {
	return Latency{
		CatSearch:       386 * time.Millisecond,
		CatDownload:     684 * time.Millisecond,
		CommonsQuery:    386 * time.Millisecond,
		CommonsDownload: 684 * time.Millisecond,
	}
}

// of returns the latency of target.
func (l Latency) of(target string) time.Duration {
	switch target {
	case TargetCatSearch:
		return l.CatSearch
	case TargetCatDownload:
		return l.CatDownload
	case TargetCommonsQuery:
		return l.CommonsQuery
	case TargetCommonsDownload:
		return l.CommonsDownload
	}
	return 0
}

// Request is what the fake recorded about a request.
type Request struct {
	Path   string
	Query  url.Values
	Header http.Header
}

// SetFault makes every later response of target fail with f. It panics on an
// unknown target, which is always a typo in a test.
func (s *Server) SetFault(target string, f Fault) {
	if !validTarget(target) {
		panic("fakeup: unknown target " + target)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[target] = f
}

// SetLatency replaces the per-target latency.
func (s *Server) SetLatency(l Latency) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = l
}

// Requests returns how many requests target has received, counted on
// arrival, before latency and faults.
func (s *Server) Requests(target string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[target]
}

// LastRequest returns the most recent request to target, if any.
func (s *Server) LastRequest(target string) (Request, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.last[target]
	return r, ok
}

// record counts r and remembers it, and returns the target's current
// latency and fault.
func (s *Server) record(target string, r *http.Request) (time.Duration, Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[target]++
	s.last[target] = Request{Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone()}
	return s.latency.of(target), s.faults[target]
}
