package metrics

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Hooks creates signal_bot_hook_calls, the calls of the hook commands
// (COMMANDS_FILE) by command and outcome, with every pair of names and
// outcomes at 0 from the start, so that rate() and alerts see each; it
// returns the function that counts a call. Call it once, with no names when
// there is no hook: the metric is then not exported.
func (m *Metrics) Hooks(names, outcomes []string) (func(command, outcome string), error) {
	if len(names) == 0 {
		return func(string, string) {}, nil
	}
	c, err := m.provider.Meter("signal-bot").Int64Counter("signal_bot_hook_calls",
		metric.WithDescription("Calls of the hook commands, by command and outcome: ok, timeout, status (not 2xx), too_big, bad_answer, picture (its picture failed), error (no answer). Every outcome but ok got the user the apology."))
	if err != nil {
		return nil, fmt.Errorf("set up metrics: %w", err)
	}
	for _, n := range names {
		for _, o := range outcomes {
			c.Add(context.Background(), 0, metric.WithAttributes(attribute.String("command", n), attribute.String("outcome", o)))
		}
	}
	return func(command, outcome string) {
		c.Add(context.Background(), 1, metric.WithAttributes(attribute.String("command", command), attribute.String("outcome", outcome)))
	}, nil
}
