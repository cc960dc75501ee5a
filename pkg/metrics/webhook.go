package metrics

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"signal-bot/pkg/signalapi"
)

// ObserveWebhook exports the POSTs the webhook refused before reading them,
// by reason: busy (their bodies did not fit WEBHOOK_READ_BYTES: 503) and
// token (no ?token= or a wrong one: 401, 403); and the bodies it skipped.
func (m *Metrics) ObserveWebhook(src func() signalapi.WebhookStats) error {
	meter := m.provider.Meter("signal-bot")
	refused, err := meter.Int64ObservableCounter("signal_bot_webhook_refused", metric.WithDescription("Webhook POSTs refused before their body was read, by reason: busy (WEBHOOK_READ_BYTES full, answered 503), token (missing or wrong ?token=, 401 or 403)."))
	if err != nil {
		return err
	}
	bad, err := meter.Int64ObservableCounter("signal_bot_webhook_bad_bodies", metric.WithDescription("Webhook bodies skipped: no JSON-RPC receive line (400), over the size (413) or unreadable (400)."))
	if err != nil {
		return err
	}
	busy := metric.WithAttributes(attribute.String("reason", "busy"))
	token := metric.WithAttributes(attribute.String("reason", "token"))
	_, err = meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s := src()
		o.ObserveInt64(refused, s.Busy, busy)
		o.ObserveInt64(refused, s.Denied, token)
		o.ObserveInt64(bad, s.Bad)
		return nil
	}, refused, bad)
	return err
}
