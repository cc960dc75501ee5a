package metrics

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/metric"
)

// HealthStats are the figures behind /healthz's state and send sections,
// read at scrape time.
type HealthStats struct {
	StateRejected    uint64 // records the state writer dropped alone: bbolt cannot take them
	AnswerUnreadable int64  // sends answered 201 with an unreadable body: counted as sent
	SendFailedInRow  int    // sends failed since the last one that went
}

// ObserveHealth exports the records the state writer could not write, the
// sends whose answer was unreadable, and the sends failed in a row.
func (m *Metrics) ObserveHealth(src func() HealthStats) error {
	meter := m.provider.Meter("signal-bot")
	var errs []error
	rejected, err := meter.Int64ObservableCounter("signal_bot_state_records_rejected", metric.WithDescription("Records the state writer could not write (a key over 32 KiB, an empty key): dropped alone, logged, the rest of their commit written."))
	errs = append(errs, err)
	unreadable, err := meter.Int64ObservableCounter("signal_bot_sends_answer_unreadable", metric.WithDescription("Sends answered 201 whose body could not be read or parsed: counted as sent, not retried, not in signal_bot_send_errors_total."))
	errs = append(errs, err)
	inRow, err := meter.Int64ObservableGauge("signal_bot_send_failed_in_row", metric.WithDescription("Sends failed since the last one that went; /healthz is degraded from 5."))
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	_, err = meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s := src()
		o.ObserveInt64(rejected, int64(s.StateRejected))
		o.ObserveInt64(unreadable, s.AnswerUnreadable)
		o.ObserveInt64(inRow, int64(s.SendFailedInRow))
		return nil
	}, rejected, unreadable, inRow)
	return err
}
