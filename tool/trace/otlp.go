package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
)

// span is one span as Jaeger stored it, with nanosecond times.
type span struct {
	TraceID, SpanID, ParentID string
	Name                      string
	Start, End                time.Time
	Attrs                     []attribute.KeyValue
	Error                     string // the status message of a span with status Error
	Failed                    bool
	Service                   string // its resource's service.name: the bot's, or a hook's that joined the trace
}

// attr returns the value of key k, if s has it.
func (s span) attr(k attribute.Key) (attribute.Value, bool) {
	for _, kv := range s.Attrs {
		if kv.Key == k {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

// otlpDoc is an answer of Jaeger's API v3: OTLP/JSON traces under "result",
// or an error.
type otlpDoc struct {
	Result struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []otlpKV `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Spans []otlpSpan `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	} `json:"result"`
	Error *struct {
		HTTPCode int    `json:"httpCode"`
		Message  string `json:"message"`
	} `json:"error"`
}

type otlpSpan struct {
	TraceID      string      `json:"traceId"`
	SpanID       string      `json:"spanId"`
	ParentSpanID string      `json:"parentSpanId"`
	Name         string      `json:"name"`
	Start        json.Number `json:"startTimeUnixNano"`
	End          json.Number `json:"endTimeUnixNano"`
	Attributes   []otlpKV    `json:"attributes"`
	Status       struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
	} `json:"status"`
}

type otlpKV struct {
	Key   string `json:"key"`
	Value struct {
		String *string          `json:"stringValue"`
		Bool   *bool            `json:"boolValue"`
		Int    *json.Number     `json:"intValue"`
		Double *json.Number     `json:"doubleValue"`
		Array  *json.RawMessage `json:"arrayValue"`
	} `json:"value"`
}

// errNotFound is Jaeger's answer for a trace it does not hold.
var errNotFound = errors.New("not found")

// decodeSpans reads every document of an API v3 answer (one, or several in a
// row) and returns their spans.
func decodeSpans(r io.Reader) ([]span, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var out []span
	for {
		var doc otlpDoc
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("decode Jaeger's answer: %w", err)
		}
		if doc.Error != nil {
			if doc.Error.HTTPCode == 404 {
				return nil, errNotFound
			}
			return nil, fmt.Errorf("jaeger: %d %s", doc.Error.HTTPCode, doc.Error.Message)
		}
		for _, rs := range doc.Result.ResourceSpans {
			service := serviceName(rs.Resource.Attributes)
			for _, ss := range rs.ScopeSpans {
				for _, os := range ss.Spans {
					s, err := os.span()
					if err != nil {
						return nil, err
					}
					s.Service = service
					out = append(out, s)
				}
			}
		}
	}
}

// serviceName is a resource's service.name, "" without one.
func serviceName(attrs []otlpKV) string {
	for _, kv := range attrs {
		if a, ok := kv.attribute(); ok && a.Key == "service.name" {
			return a.Value.AsString()
		}
	}
	return ""
}

func (o otlpSpan) span() (span, error) {
	start, err1 := unixNano(o.Start)
	end, err2 := unixNano(o.End)
	if err := errors.Join(err1, err2); err != nil {
		return span{}, fmt.Errorf("span %s %q: %w", o.SpanID, o.Name, err)
	}
	s := span{TraceID: o.TraceID, SpanID: o.SpanID, ParentID: o.ParentSpanID, Name: o.Name, Start: start, End: end}
	// OTLP/JSON writes the status code as a number (2) or, from some
	// encoders, as its enum name.
	code := strings.Trim(string(o.Status.Code), `"`)
	if code == "2" || code == "STATUS_CODE_ERROR" {
		s.Failed, s.Error = true, o.Status.Message
	}
	for _, kv := range o.Attributes {
		if a, ok := kv.attribute(); ok {
			s.Attrs = append(s.Attrs, a)
		}
	}
	return s, nil
}

// attribute converts a scalar attribute; arrays and maps are left out.
func (kv otlpKV) attribute() (attribute.KeyValue, bool) {
	v := kv.Value
	switch {
	case v.String != nil:
		return attribute.String(kv.Key, *v.String), true
	case v.Bool != nil:
		return attribute.Bool(kv.Key, *v.Bool), true
	case v.Int != nil:
		n, err := strconv.ParseInt(v.Int.String(), 10, 64)
		return attribute.Int64(kv.Key, n), err == nil
	case v.Double != nil:
		f, err := v.Double.Float64()
		return attribute.Float64(kv.Key, f), err == nil
	}
	return attribute.KeyValue{}, false
}

// unixNano parses a time in Unix nanoseconds, written as a string or a number.
func unixNano(n json.Number) (time.Time, error) {
	ns, err := strconv.ParseInt(strings.Trim(n.String(), `"`), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %q: %w", n, err)
	}
	return time.Unix(0, ns).UTC(), nil
}
