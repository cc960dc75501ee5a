package httpapi

import (
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/bot"
)

// A silence longer than SILENCE_DEGRADED is a reason, with how long and
// since what; shorter, or with the setting off, it is none. The clock is
// the test's.
func TestSilence(t *testing.T) {
	start := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	last := start.Add(time.Hour)
	heard := bot.Heard{LastFrameAt: &last, Since: start}
	none := bot.Heard{Since: start}
	tests := []struct {
		name  string
		heard bot.Heard
		limit time.Duration
		now   time.Time
		want  []string // parts of the reason; nil: no reason
	}{
		{"off", heard, 0, last.Add(48 * time.Hour), nil},
		{"within the bound", heard, time.Hour, last.Add(time.Hour), nil},
		{"over the bound", heard, time.Hour, last.Add(time.Hour + 90*time.Second),
			[]string{"nothing heard from signal-cli-rest-api for 1h1m30s", "the last frame at 2026-12-02T01:00:00Z", "SILENCE_DEGRADED=1h0m0s"}},
		{"nothing since the start", none, time.Hour, start.Add(2 * time.Hour),
			[]string{"for 2h0m0s", "no frame since the start at 2026-12-02T00:00:00Z"}},
		{"a frame again", heard, time.Hour, last.Add(time.Second), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := silence(tt.heard, tt.limit, tt.now)
			if (got == "") != (tt.want == nil) {
				t.Fatalf("silence = %q; want a reason: %v", got, tt.want != nil)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("silence = %q; want it to say %q", got, w)
				}
			}
		})
	}
}
