package backoff

import (
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	tests := []struct {
		n      int
		jitter float64
		want   time.Duration
	}{
		{0, 1, time.Second},
		{0, 0, 500 * time.Millisecond},
		{1, 1, 2 * time.Second},
		{3, 1, 8 * time.Second},
		{4, 1, 10 * time.Second},
		{4, 0, 5 * time.Second},
		{99, 0.5, 7500 * time.Millisecond},
		{1 << 20, 0, 5 * time.Second},
	}
	for _, tt := range tests {
		if got := Delay(tt.n, time.Second, 10*time.Second, tt.jitter); got != tt.want {
			t.Errorf("Delay(%d, 1s, 10s, %v) = %v; want %v", tt.n, tt.jitter, got, tt.want)
		}
	}
}

func TestDelayZeroBase(t *testing.T) {
	if got := Delay(3, 0, time.Second, 0.7); got != 0 {
		t.Errorf("Delay(3, 0, 1s, 0.7) = %v; want 0", got)
	}
}
