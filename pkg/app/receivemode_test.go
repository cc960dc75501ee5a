package app_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/app"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/config"
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

// Bad receive settings are refused at start, naming the variable to fix.
func TestReceiveModeConfig(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string
	}{
		{"unknown mode", map[string]string{"RECEIVE_MODE": "poll"}, "RECEIVE_MODE"},
		{"webhook in the sandbox", map[string]string{"RECEIVE_MODE": "webhook"}, "SIGNAL_API_URL"},
		{"relative path", map[string]string{"RECEIVE_MODE": "webhook", "SIGNAL_API_URL": "http://127.0.0.1:1", "SIGNAL_NUMBER": "+48500000001", "WEBHOOK_PATH": "hook"}, "WEBHOOK_PATH"},
		{"open address without webhook token", map[string]string{
			"RECEIVE_MODE": "webhook", "SIGNAL_API_URL": "http://127.0.0.1:1", "SIGNAL_NUMBER": "+48500000001",
			"HTTP_ADDR": "0.0.0.0:0", "SELFTEST_TOKEN": strings.Repeat("s", 32),
		}, "WEBHOOK_TOKEN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Load(context.Background(), envconfig.MapLookuper(tt.env))
			if err == nil { // valid configuration: app.New refuses it before it opens anything
				_, err = app.New(context.Background(), cfg, app.Options{Log: slog.New(slog.DiscardHandler)})
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v; want one naming %s", err, tt.wantErr)
			}
		})
	}
}
