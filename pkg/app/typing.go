package app

import (
	"net/http"

	"go.opentelemetry.io/otel/trace"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/config"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// typer returns the client that shows the typing indicator, nil with
// TYPING=off. It is a client of its own so that its calls are spans of the
// typing leg, never counted as send time (which own_ms subtracts).
//
// Each indicator is first asked of the outbound gate (bot.Deps.TypingBudget):
// it costs the chat two sends, and is skipped when the chat's budget is low.
func typer(cfg config.Config, base http.RoundTripper, tp trace.TracerProvider) bot.Typer {
	if !cfg.Bot.TypingOn() {
		return nil
	}
	return signalapi.New(cfg.Signal.Config, &http.Client{Transport: telemetry.NewTransport(base, tp, telemetry.LegTyping)})
}
