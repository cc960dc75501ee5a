package app_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// In websocket mode the bot says once, at start, that bursts can be lost and
// how to switch; in webhook mode it does not.
func TestWebsocketModeWarnsOfBursts(t *testing.T) {
	const warning = "receiving by websocket, which loses bursts"
	tests := []struct {
		name    string
		webhook bool
		want    int
	}{
		{"websocket", false, 1},
		{"webhook", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := botest.New(t, sim.Config{}, nil)
			if tt.webhook {
				h.StartWebhook()
			} else {
				h.Start()
			}
			logs := h.Logs.String()
			if got := strings.Count(logs, warning); got != tt.want {
				t.Errorf("%q logged %d times; want %d\n%s", warning, got, tt.want, logs)
			}
			if tt.want > 0 && !strings.Contains(logs, "RECEIVE_MODE=webhook") {
				t.Errorf("the warning does not say how to switch:\n%s", logs)
			}
		})
	}
}
