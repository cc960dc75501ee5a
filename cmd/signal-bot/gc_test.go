package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGCKeepsWhatTheEnvironmentSets(t *testing.T) {
	const limit = 300 << 20 // as if the runtime had read GOMEMLIMIT
	tests := []struct {
		name      string
		env       map[string]string
		wantLimit int64
	}{
		{"not set: the bot's default", nil, defaultMemoryLimit},
		{"GOGC set: the limit still applies", map[string]string{"GOGC": "150"}, defaultMemoryLimit},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "300MiB"}, limit},
	}
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetMemoryLimit(oldLimit) })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetMemoryLimit(limit)
			tuneGC(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if got := debug.SetMemoryLimit(-1); got != tt.wantLimit {
				t.Errorf("memory limit = %d, want %d", got, tt.wantLimit)
			}
		})
	}
}
