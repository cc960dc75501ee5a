package main

import (
	"errors"
	"io"
	"testing"
	"time"
)

func TestParseArgs(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    options
		wantErr bool
	}{
		{"trace id", []string{"0AF7651916CD43DD8448EB211C80319C"}, nil,
			options{jaeger: "http://127.0.0.1:16686", service: "signal-bot", traceID: "0af7651916cd43dd8448eb211c80319c", by: "round_trip", width: 60, wait: 5 * time.Second}, false},
		{"slowest from the environment's Jaeger", []string{"--slowest", "10m", "--by", "own"}, map[string]string{"JAEGER_URL": "http://jaeger:16686/", "OTEL_SERVICE_NAME": "bot"},
			options{jaeger: "http://jaeger:16686", service: "bot", slowest: 10 * time.Minute, by: "own", width: 60, wait: 5 * time.Second}, false},
		{"last", []string{"--last", "3"}, nil,
			options{jaeger: "http://127.0.0.1:16686", service: "signal-bot", last: 3, by: "round_trip", width: 60, wait: 5 * time.Second}, false},
		{"nothing", nil, nil, options{}, true},
		{"two modes", []string{"--last", "3", "--slowest", "1m"}, nil, options{}, true},
		{"not a trace id", []string{"served"}, nil, options{}, true},
		{"two ids", []string{"0af7651916cd43dd8448eb211c80319c", "0af7651916cd43dd8448eb211c80319d"}, nil, options{}, true},
		{"bad by", []string{"--last", "1", "--by", "send"}, nil, options{}, true},
		{"bad jaeger", []string{"--last", "1", "--jaeger", "127.0.0.1:16686"}, nil, options{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseArgs(tt.args, env(tt.env), io.Discard)
			if tt.wantErr {
				if !errors.As(err, new(usageError)) {
					t.Fatalf("parseArgs(%q) error = %v; want a usage error", tt.args, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("parseArgs(%q) =\n %+v; want\n %+v", tt.args, got, tt.want)
			}
		})
	}
}
