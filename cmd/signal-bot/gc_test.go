package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneGCKeepsWhatTheEnvironmentSets(t *testing.T) {
	const gogc, limit = 150, 300 << 20 // as if the runtime had read GOGC and GOMEMLIMIT
	tests := []struct {
		name      string
		env       map[string]string
		wantGC    int
		wantLimit int64
	}{
		{"neither set: the bot's defaults", nil, defaultGCPercent, defaultMemoryLimit},
		{"GOGC set", map[string]string{"GOGC": "150"}, gogc, defaultMemoryLimit},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "300MiB"}, defaultGCPercent, limit},
		{"both set", map[string]string{"GOGC": "150", "GOMEMLIMIT": "300MiB"}, gogc, limit},
	}
	oldGC, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() { debug.SetGCPercent(oldGC); debug.SetMemoryLimit(oldLimit) })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(gogc)
			debug.SetMemoryLimit(limit)
			tuneGC(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if got := debug.SetGCPercent(gogc); got != tt.wantGC {
				t.Errorf("GOGC = %d, want %d", got, tt.wantGC)
			}
			if got := debug.SetMemoryLimit(-1); got != tt.wantLimit {
				t.Errorf("memory limit = %d, want %d", got, tt.wantLimit)
			}
		})
	}
}
