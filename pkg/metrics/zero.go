package metrics

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"signal-bot/pkg/telemetry"
)

// Known are the label values of the bot's counters that depend on how it is
// built: its commands' registry names, and the commands with a picture pool.
type Known struct {
	Commands []string
	Pools    []string
}

// The label values that do not depend on the build, as the bot records them
// (its Recorder's callers: pkg/bot, pkg/app, pkg/pictures).
var (
	shedReasons    = []string{"budget_chat", "budget_attachments", "paused", "quiet", "cancelled"}
	ignoredReasons = []string{"answer_in", "own_send", "owner_group", "not_admin", "admin_in_group", "off", "paused", "sender_too_long", "frame_too_big"}
	postOutcomes   = []string{telemetry.OutcomeServed, telemetry.OutcomeShed, telemetry.OutcomeError, telemetry.OutcomeDropped, "skipped", "paused", "unrecorded"}
	replyOutcomes  = []string{telemetry.OutcomeServed, telemetry.OutcomeCooldown, telemetry.OutcomeNotHere, telemetry.OutcomeShed, telemetry.OutcomeError}
	sendKinds      = []string{"rate_limited", "bad_request", "unavailable", "timeout", "other"}
	upstreamKinds  = []string{"timeout", "status", "bad_json", "too_big", "not_image", "no_images", "other"}
	// backgroundLoops are the goroutines a panic in which is counted as
	// background:<name>; the pools' refills add refill_<command>.
	backgroundLoops = []string{"receive", "members", "groups", "schedule", "prune", "typing"}
	// unnamed are the panic labels of a frame that names no command the
	// registry knows (pkg/bot's commandName).
	unnamed = []string{"unknown", "none"}
)

// StartAtZero exports every counter an operator may alert on from 0, with
// each label set it can take: increase() and rate() see no series before its
// first sample, so a counter that appeared only with its first event (the
// first panic) would never fire an alert for it. Called once at start, when
// the registry is built.
func (m *Metrics) StartAtZero(k Known) {
	ctx := context.Background()
	zero := func(c metric.Int64Counter, attrs ...attribute.KeyValue) {
		c.Add(ctx, 0, metric.WithAttributes(attrs...))
	}
	for _, r := range shedReasons {
		zero(m.shed, attribute.String("reason", r))
	}
	for _, r := range ignoredReasons {
		zero(m.ignored, attribute.String("reason", r))
	}
	for _, o := range postOutcomes {
		zero(m.scheduled, attribute.String("outcome", o))
	}
	for _, kind := range sendKinds {
		zero(m.sendErrs, attribute.String("kind", kind))
	}
	zero(m.replies, attribute.String("command", "unknown"), attribute.String("outcome", telemetry.OutcomeUnknown))
	for _, c := range k.Commands {
		for _, o := range replyOutcomes {
			zero(m.replies, attribute.String("command", c), attribute.String("outcome", o))
		}
		for _, kind := range upstreamKinds {
			zero(m.cmdErrors, attribute.String("command", c), attribute.String("kind", kind))
		}
		zero(m.stateErrs, attribute.String("command", c))
		zero(m.panics, attribute.String("command", c))
	}
	for _, c := range unnamed {
		zero(m.panics, attribute.String("command", c))
	}
	for _, l := range backgroundLoops {
		zero(m.panics, attribute.String("command", "background:"+l))
	}
	for _, p := range k.Pools {
		zero(m.panics, attribute.String("command", "background:refill_"+p))
	}
}
