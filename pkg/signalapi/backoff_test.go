package signalapi

import (
	"math/rand/v2"
	"testing"
	"time"

	"signal-bot/pkg/backoff"
)

// The redial schedule Receive uses: full jitter in [d/2, d) of a doubling
// delay from 100 ms, never over the 2 s cap, so a REST API that comes back is
// found within 2 s however long it was gone.
func TestBackoffIsCapped(t *testing.T) {
	if backoffMax != 2*time.Second || backoffBase != 100*time.Millisecond {
		t.Fatalf("backoff base %v, cap %v; want 100ms and 2s (docs/faults.md)", backoffBase, backoffMax)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		attempt  int
		min, max time.Duration // the jitter range [min, max)
	}{
		{0, 50 * time.Millisecond, 100 * time.Millisecond},
		{1, 100 * time.Millisecond, 200 * time.Millisecond},
		{2, 200 * time.Millisecond, 400 * time.Millisecond},
		{3, 400 * time.Millisecond, 800 * time.Millisecond},
		{4, 800 * time.Millisecond, 1600 * time.Millisecond},
		{5, time.Second, 2 * time.Second},
		{6, time.Second, 2 * time.Second},
		{63, time.Second, 2 * time.Second},
		{1 << 20, time.Second, 2 * time.Second},
	}
	for _, tt := range tests {
		for range 1000 {
			if got := backoff.Delay(tt.attempt, backoffBase, backoffMax, rng.Float64()); got < tt.min || got >= tt.max {
				t.Fatalf("backoff.Delay(%d) = %v; want in [%v, %v)", tt.attempt, got, tt.min, tt.max)
			}
		}
	}
}
