package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// v3Answer is the shape of Jaeger's GET /api/v3/traces/<id>, cut down.
const v3Answer = `{"result":{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"signal-bot"}}]},
"scopeSpans":[{"scope":{"name":"signal-bot"},"spans":[
 {"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b7","name":"frame","kind":5,
  "startTimeUnixNano":"1796110955354537251","endTimeUnixNano":"1796110955659943251",
  "attributes":[{"key":"bot.synthetic","value":{"boolValue":true}},{"key":"bot.outcome","value":{"stringValue":"served"}}],"status":{}},
 {"traceId":"0af7651916cd43dd8448eb211c80319c","spanId":"00f067aa0ba902b8","parentSpanId":"00f067aa0ba902b7","name":"POST /v2/send","kind":3,
  "startTimeUnixNano":"1796110955354600000","endTimeUnixNano":"1796110955654600000",
  "attributes":[{"key":"http.response.status_code","value":{"intValue":"500"}},{"key":"bot.leg","value":{"stringValue":"send"}}],
  "status":{"code":2,"message":"500 Internal Server Error"}}]}]}]}}
`

func TestDecodeSpans(t *testing.T) {
	spans, err := decodeSpans(strings.NewReader(v3Answer + v3Answer))
	if err != nil {
		t.Fatal(err)
	}
	if len(spans) != 4 {
		t.Fatalf("decodeSpans: %d spans; want 4 (two documents of 2)", len(spans))
	}
	root, send := spans[0], spans[1]
	if got, want := root.Start, time.Unix(0, 1796110955354537251).UTC(); !got.Equal(want) {
		t.Errorf("root start = %v; want %v (nanoseconds kept)", got, want)
	}
	if v, ok := root.attr("bot.synthetic"); !ok || !v.AsBool() {
		t.Errorf("bot.synthetic = %v, %v; want true", v, ok)
	}
	if v, ok := send.attr("http.response.status_code"); !ok || v.AsInt64() != 500 {
		t.Errorf("status code = %v, %v; want 500", v, ok)
	}
	if root.Service != "signal-bot" || send.Service != "signal-bot" {
		t.Errorf("services %q, %q; want the resource's signal-bot", root.Service, send.Service)
	}
	if send.ParentID != root.SpanID || !send.Failed || send.Error != "500 Internal Server Error" {
		t.Errorf("send = %+v; want a failed child of the root", send)
	}
}

func TestDecodeSpansErrors(t *testing.T) {
	tests := []struct {
		name, body string
		want       error  // errors.Is
		wantText   string // or a substring
	}{
		{"not found", `{"error":{"httpCode":404,"message":"trace not found"}}`, errNotFound, ""},
		{"other error", `{"error":{"httpCode":500,"message":"search depth must be greater than 0"}}`, nil, "search depth"},
		{"bad time", `{"result":{"resourceSpans":[{"scopeSpans":[{"spans":[{"spanId":"01","startTimeUnixNano":"soon","endTimeUnixNano":"1"}]}]}]}}`, nil, "decode"},
		{"not JSON", `<html>`, nil, "decode"},
	}
	for _, tt := range tests {
		_, err := decodeSpans(strings.NewReader(tt.body))
		switch {
		case err == nil:
			t.Errorf("%s: no error", tt.name)
		case tt.want != nil && !errors.Is(err, tt.want):
			t.Errorf("%s: %v; want %v", tt.name, err, tt.want)
		case tt.wantText != "" && !strings.Contains(err.Error(), tt.wantText):
			t.Errorf("%s: %v; want it to mention %q", tt.name, err, tt.wantText)
		}
	}
}
