package metrics

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/metric"
)

// JournalStats are the journal's figures, read at scrape time.
type JournalStats struct {
	Pending                int
	Replayed, TooOld, Full int64
	Refused, Poison        int64
}

// ObserveJournal exports the journal of accepted frames: frames pending,
// replayed at this start, dropped as older than REPLAY_MAX_AGE, refused at
// intake on replay, dropped as poison, and run unjournaled because the journal was full.
func (m *Metrics) ObserveJournal(src func() JournalStats) error {
	meter := m.provider.Meter("signal-bot")
	var errs []error
	pending, err := meter.Int64ObservableGauge("signal_bot_journal_pending", metric.WithDescription("Accepted frames in the journal whose outcome is not final yet."))
	errs = append(errs, err)
	replayed, err := meter.Int64ObservableCounter("signal_bot_journal_replayed", metric.WithDescription("Frames a previous process left in the journal, run again at this start."))
	errs = append(errs, err)
	old, err := meter.Int64ObservableCounter("signal_bot_journal_dropped_old", metric.WithDescription("Frames left in the journal that were older than REPLAY_MAX_AGE at start: dropped, not answered."))
	errs = append(errs, err)
	refused, err := meter.Int64ObservableCounter("signal_bot_journal_refused", metric.WithDescription("Frames left in the journal that the intake refused on replay (SENDER_QUEUE, QUEUE_BYTES): dropped, not answered, counted in signal_bot_frames_dropped_total too."))
	errs = append(errs, err)
	poison, err := meter.Int64ObservableCounter("signal_bot_journal_poison", metric.WithDescription("Frames left in the journal that had been replayed REPLAY_MAX_ATTEMPTS times already, the process dying each time: dropped as poison, not answered."))
	errs = append(errs, err)
	full, err := meter.Int64ObservableCounter("signal_bot_journal_full", metric.WithDescription("Accepted frames run without a journal entry because the journal was full."))
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	_, err = meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s := src()
		o.ObserveInt64(pending, int64(s.Pending))
		o.ObserveInt64(replayed, s.Replayed)
		o.ObserveInt64(old, s.TooOld)
		o.ObserveInt64(full, s.Full)
		o.ObserveInt64(refused, s.Refused)
		o.ObserveInt64(poison, s.Poison)
		return nil
	}, pending, replayed, old, full, refused, poison)
	return err
}
