package backoff

import (
	"context"
	"testing"
	"time"
)

func TestGuard(t *testing.T) {
	tests := []struct {
		name        string
		panics      int // the loop panics this many times, then returns
		wantReports int
		wantRuns    int
	}{
		{"returns", 0, 0, 1},
		{"panics once", 1, 1, 2},
		{"panics thrice", 3, 3, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, reports := 0, 0
			Guard(context.Background(), time.Microsecond, time.Millisecond,
				func(v any, stack []byte) {
					reports++
					if v != "boom" || len(stack) == 0 {
						t.Errorf("report(%v, %d bytes of stack)", v, len(stack))
					}
				},
				func(context.Context) {
					runs++
					if runs <= tt.panics {
						panic("boom")
					}
				})
			if runs != tt.wantRuns || reports != tt.wantReports {
				t.Errorf("runs %d, reports %d; want %d, %d", runs, reports, tt.wantRuns, tt.wantReports)
			}
		})
	}
}

// A loop that keeps panicking stops being restarted once ctx ends.
func TestGuardStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	runs := 0
	Guard(ctx, time.Microsecond, time.Millisecond, func(any, []byte) {},
		func(context.Context) {
			runs++
			if runs == 3 {
				cancel()
			}
			panic("boom")
		})
	if runs != 3 {
		t.Errorf("runs %d; want 3 (none after ctx ended)", runs)
	}
}
