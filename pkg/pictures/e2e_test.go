package pictures_test

import (
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/sim"
)

// Through the whole bot: a !cat served from a filled pool has no upstream
// time in its timing block; with the pool off the same !cat has.
func TestSelftestUpstreamTime(t *testing.T) {
	tests := []struct {
		name         string
		poolSize     string
		wantUpstream bool
	}{
		{"pool hit", "3", false},
		{"pool off", "0", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := botest.New(t, sim.Config{Lossless: true}, map[string]string{
				"POOL_SIZE_CAT": tt.poolSize, "POOL_SIZE_KOT": "0", "POOL_REFILL_CONCURRENCY": "1",
				"COOLDOWNS": "cat=0s,kot=0s",
			})
			h.Start()
			if tt.poolSize != "0" {
				// Refills run one at a time, so the third search starts only
				// after the second picture is in the pool.
				waitSearches(t, h, 3)
			}
			b := h.Selftest("!cat")
			if got := b.UpstreamMS > 0; got != tt.wantUpstream {
				t.Errorf("upstream_ms = %v; want > 0: %v", b.UpstreamMS, tt.wantUpstream)
			}
			sent := h.WaitSent(1)
			if len(sent[0].Attachments) != 1 {
				t.Errorf("sent %d attachments; want 1 picture", len(sent[0].Attachments))
			}
		})
	}
}

// waitSearches waits up to 10 s until the fake Cat API has had n searches.
// None at all, before any frame, means app.New does not start the pools
// yet (startPictures), and the test is skipped.
func waitSearches(t *testing.T, h *botest.Harness, n int) {
	t.Helper()
	for range 10000 {
		if h.Up.Requests(fakeup.TargetCatSearch) >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%d Cat API searches within 10 s; want %d (the pool filling)", h.Up.Requests(fakeup.TargetCatSearch), n)
}
