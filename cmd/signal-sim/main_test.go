package main

import (
	"context"
	"io"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"serves until the context ends", []string{"-addr", "127.0.0.1:0", "-latency", "zero"}, false},
		{"help", []string{"-h"}, false},
		{"unknown latency profile", []string{"-addr", "127.0.0.1:0", "-latency", "fast"}, true},
		{"signal limits", []string{"-addr", "127.0.0.1:0", "-limits", "signal"}, false},
		{"unknown limits profile", []string{"-addr", "127.0.0.1:0", "-limits", "strict"}, true},
		{"unknown send shape", []string{"-addr", "127.0.0.1:0", "-send-shape", "list"}, true},
		{"bad address", []string{"-addr", "127.0.0.1:99999"}, true},
		{"unknown flag", []string{"-nope"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // run returns as soon as it is serving
			err := run(ctx, tt.args, io.Discard)
			if (err != nil) != tt.wantErr {
				t.Errorf("run(%q) = %v; want error %v", tt.args, err, tt.wantErr)
			}
		})
	}
}
