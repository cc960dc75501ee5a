package app

import "signal-bot/pkg/metrics"

// healthStats are the state writer's and the sends' figures for /metrics.
func (a *App) healthStats() metrics.HealthStats {
	st, ss := a.store.Stats(), a.bot.SendStats()
	return metrics.HealthStats{StateRejected: st.Rejected, AnswerUnreadable: ss.AnswerUnreadable, SendFailedInRow: ss.FailedInRow}
}
