package metrics

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"signal-bot/pkg/signalapi"
)

// instruments creates every instrument; names are those of docs/operations.md#metrics.
func (m *Metrics) instruments(src Sources) error {
	meter := m.provider.Meter("signal-bot")
	var obs observed
	if err := errors.Join(m.recorded(meter), m.recipientCounter(meter), obs.create(meter)); err != nil {
		return err
	}
	_, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		obs.observe(src, o)
		return nil
	}, obs.all()...)
	return err
}

// recorded creates the instruments the bot records into as frames pass.
func (m *Metrics) recorded(meter metric.Meter) error {
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	var err error
	m.replies, err = meter.Int64Counter("signal_bot_replies", metric.WithDescription("Frames that reached a command, by command and outcome (served, cooldown, unknown, not_here, error)."))
	add(err)
	m.own, err = meter.Float64Histogram("signal_bot_own_ms", metric.WithDescription("The bot's own share of a reply's latency, milliseconds."), metric.WithExplicitBucketBoundaries(msBuckets...))
	add(err)
	m.roundTrip, err = meter.Float64Histogram("signal_bot_round_trip_ms", metric.WithDescription("From reading the frame to the end of its last span, milliseconds."), metric.WithExplicitBucketBoundaries(msBuckets...))
	add(err)
	m.cmdErrors, err = meter.Int64Counter("signal_bot_upstream_errors", metric.WithDescription("Failed picture fetches, by command and kind (timeout, status, bad_json, too_big, not_image, other)."))
	add(err)
	m.sendErrs, err = meter.Int64Counter("signal_bot_send_errors", metric.WithDescription("Failed POST /v2/send, by kind (rate_limited, bad_request, unavailable, timeout, other)."))
	add(err)
	m.shed, err = meter.Int64Counter("signal_bot_replies_shed", metric.WithDescription("Replies that were due and not sent, by reason: budget_chat, budget_attachments, paused (after a 429), quiet (a refusal already sent in its window), cancelled."))
	add(err)
	m.ignored, err = meter.Int64Counter("signal_bot_frames_ignored", metric.WithDescription("Commands ignored before any reply, by reason: answer_in (a chat outside ANSWER_IN), own_send (an echo of the bot's own send), owner_group (the owner's in a group outside SIGNAL_GROUPS), not_admin and admin_in_group (a !bot from someone not in ADMINS, or from an admin in a group), off (a command switched off in chat), paused (during !bot pauza), sender_too_long (a sender id over 128 bytes) and frame_too_big (over 4 MiB), both refused at the intake."))
	add(err)
	m.skipped, err = meter.Int64Counter("signal_bot_frames_skipped", metric.WithDescription("Frames that got no reply, by reason: what they were (receipt, typing, sync, edit, reaction, exception, …) or why (undecodable, not_command, duplicate)."))
	add(err)
	m.stateErrs, err = meter.Int64Counter("signal_bot_state_errors", metric.WithDescription("Failed recordings of a use in the state file, by command; the user got an apology."))
	add(err)
	m.scheduled, err = meter.Int64Counter("signal_bot_scheduled_posts", metric.WithDescription("Scheduled posts (SCHEDULE) by outcome: served, shed, error, dropped, skipped (missed by more than SCHEDULE_GRACE), paused (due inside an admin's !bot pauza), unrecorded (its record did not reach the disk: not posted)."))
	add(err)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, reason := range signalapi.SkipLabels() { // every reason from 0, so that rate() and alerts see it
		m.skipped.Add(context.Background(), 0, metric.WithAttributes(attribute.String("reason", reason)))
	}
	return nil
}

// observed are the instruments read from Sources at scrape time.
type observed struct {
	paused, lastFrameAge                   metric.Float64ObservableGauge
	received, dropped, evicted, reconnects metric.Int64ObservableCounter
	hits, misses                           metric.Int64ObservableCounter
	depth, busy, connected, ready          metric.Int64ObservableGauge
}

func (ob *observed) create(meter metric.Meter) error {
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	var err error
	ob.paused, err = meter.Float64ObservableGauge("signal_bot_send_paused_seconds", metric.WithDescription("Seconds left of the pause of all sends after a 429; 0 while sends may go."))
	add(err)
	ob.lastFrameAge, err = meter.Float64ObservableGauge("signal_bot_last_frame_age_seconds", metric.WithDescription("Seconds since the last frame read from the REST API (any frame, receipts too), or since the start while none has come."))
	add(err)
	ob.received, err = meter.Int64ObservableCounter("signal_bot_frames_received", metric.WithDescription("Frames read from the REST API or injected by /_selftest."))
	add(err)
	ob.dropped, err = meter.Int64ObservableCounter("signal_bot_frames_dropped", metric.WithDescription("Frames dropped, by reason: queue_full (the intake FIFO), sender_queue (SENDER_QUEUE frames of that sender already waiting), queue_bytes (QUEUE_BYTES of frames held)."))
	add(err)
	ob.depth, err = meter.Int64ObservableGauge("signal_bot_queue_depth", metric.WithDescription("Frames waiting in the intake FIFO for a slot."))
	add(err)
	ob.busy, err = meter.Int64ObservableGauge("signal_bot_slots_busy", metric.WithDescription("Frames being handled now (at most LIMIT)."))
	add(err)
	ob.evicted, err = meter.Int64ObservableCounter("signal_bot_traces_evicted", metric.WithDescription("Frame traces dropped before completing (max age or max traces)."))
	add(err)
	ob.connected, err = meter.Int64ObservableGauge("signal_bot_websocket_connected", metric.WithDescription("1 while the websocket to the REST API is up."))
	add(err)
	ob.reconnects, err = meter.Int64ObservableCounter("signal_bot_websocket_reconnects", metric.WithDescription("Websocket connections made after the first."))
	add(err)
	ob.hits, err = meter.Int64ObservableCounter("signal_bot_pool_hits", metric.WithDescription("Pictures served from the prefetch pool, by command."))
	add(err)
	ob.misses, err = meter.Int64ObservableCounter("signal_bot_pool_misses", metric.WithDescription("Pictures fetched inline because the pool was empty, by command."))
	add(err)
	ob.ready, err = meter.Int64ObservableGauge("signal_bot_pool_ready", metric.WithDescription("Pictures ready in the pool, by command."))
	add(err)
	return errors.Join(errs...)
}

// all lists the instruments for RegisterCallback.
func (ob *observed) all() []metric.Observable {
	return []metric.Observable{ob.received, ob.dropped, ob.depth, ob.busy, ob.evicted, ob.connected,
		ob.reconnects, ob.hits, ob.misses, ob.ready, ob.paused, ob.lastFrameAge}
}

// observe reads src into the instruments, once per scrape.
func (ob *observed) observe(src Sources, o metric.Observer) {
	acc, drop, d, act := src.Pipeline()
	o.ObserveInt64(ob.received, acc+drop)
	if src.Drops != nil {
		for reason, n := range src.Drops() {
			o.ObserveInt64(ob.dropped, n, metric.WithAttributes(attribute.String("reason", reason)))
		}
	} else {
		o.ObserveInt64(ob.dropped, drop)
	}
	if src.PausedUntil != nil {
		left := 0.0
		if until := src.PausedUntil(); !until.IsZero() {
			left = max(time.Until(until).Seconds(), 0)
		}
		o.ObserveFloat64(ob.paused, left)
	}
	if src.LastFrame != nil {
		o.ObserveFloat64(ob.lastFrameAge, max(time.Since(src.LastFrame()).Seconds(), 0))
	}
	o.ObserveInt64(ob.depth, int64(d))
	o.ObserveInt64(ob.busy, int64(act))
	o.ObserveInt64(ob.evicted, int64(src.Evicted()))
	up := int64(0)
	if src.Connected() {
		up = 1
	}
	o.ObserveInt64(ob.connected, up)
	o.ObserveInt64(ob.reconnects, src.Reconnects())
	if src.Pool != nil {
		for cmd, ps := range src.Pool() {
			a := metric.WithAttributes(attribute.String("command", cmd))
			o.ObserveInt64(ob.hits, ps.Hits, a)
			o.ObserveInt64(ob.misses, ps.Misses, a)
			o.ObserveInt64(ob.ready, int64(ps.Ready), a)
		}
	}
}
