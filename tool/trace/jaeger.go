package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// jaeger reads traces from Jaeger's query API v3, which keeps the
// nanoseconds the bot exported (the older /api/traces rounds to µs).
type jaeger struct {
	base string
	hc   *http.Client
}

// trace returns the spans of one trace, errNotFound if Jaeger has none.
func (j jaeger) trace(ctx context.Context, id string) ([]span, error) {
	return j.get(ctx, "/api/v3/traces/"+url.PathEscape(id))
}

// frames returns the spans of up to limit traces of service whose root frame
// started in [from, to), grouped by trace id.
func (j jaeger) frames(ctx context.Context, service string, from, to time.Time, limit int) (map[string][]span, error) {
	q := url.Values{
		"query.service_name":   {service},
		"query.operation_name": {"frame"},
		"query.start_time_min": {from.UTC().Format(time.RFC3339Nano)},
		"query.start_time_max": {to.UTC().Format(time.RFC3339Nano)},
		"query.num_traces":     {strconv.Itoa(limit)},
	}
	spans, err := j.get(ctx, "/api/v3/traces?"+q.Encode())
	if err != nil {
		return nil, err
	}
	out := map[string][]span{}
	for _, s := range spans {
		out[s.TraceID] = append(out[s.TraceID], s)
	}
	return out, nil
}

func (j jaeger) get(ctx context.Context, path string) ([]span, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.base+path, nil)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	res, err := j.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusNotFound {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
		return nil, errNotFound
	}
	if res.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return nil, fmt.Errorf("GET %s: %s: %s", path, res.Status, body)
	}
	spans, err := decodeSpans(io.LimitReader(res.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	return spans, nil
}
