package metrics

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"signal-bot/pkg/signalapi"
)

// recipientCounter creates signal_bot_send_recipient_failures, every reason exported from 0.
func (m *Metrics) recipientCounter(meter metric.Meter) error {
	var err error
	m.rcptFails, err = meter.Int64Counter("signal_bot_send_recipient_failures",
		metric.WithDescription("Recipients a 201 from /v2/send named as not reached while others were, by reason: rate_limit (the sends pause), identity (a changed safety number: the member is unreachable until trusted), unregistered, network, invalid_pre_key, other."))
	if err != nil {
		return err
	}
	for _, reason := range signalapi.RecipientFailureLabels() {
		m.rcptFails.Add(context.Background(), 0, metric.WithAttributes(attribute.String("reason", reason)))
	}
	return nil
}

// RecipientFailed counts one recipient a send did not reach, by its
// signalapi.RecipientError.Label.
func (m *Metrics) RecipientFailed(reason string) {
	m.rcptFails.Add(context.Background(), 1, metric.WithAttributes(attribute.String("reason", reason)))
}
