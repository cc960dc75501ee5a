package e2e

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"sync"

	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// traceSink is an OTLP/HTTP trace receiver that counts root "frame" spans.
type traceSink struct {
	mu       sync.Mutex
	requests int
	frames   map[string]string // trace id → bot.outcome
}

func (o *traceSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	var req coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(raw, &req)
	}
	if r.URL.Path != "/v1/traces" || err != nil {
		http.Error(w, fmt.Sprintf("%s: %v", r.URL.Path, err), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.requests++
	if o.frames == nil {
		o.frames = map[string]string{}
	}
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				if s.Name != "frame" || len(s.ParentSpanId) != 0 {
					continue
				}
				outcome := ""
				for _, kv := range s.Attributes {
					if kv.Key == "bot.outcome" {
						outcome = kv.Value.GetStringValue()
					}
				}
				o.frames[fmt.Sprintf("%x", s.TraceId)] = outcome
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	_, _ = w.Write(out)
}

// outcomes counts the exported frames by outcome.
func (o *traceSink) outcomes() (requests int, frames map[string]int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	frames = map[string]int{}
	for _, oc := range o.frames {
		frames[oc]++
	}
	return o.requests, frames
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
