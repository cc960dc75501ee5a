package app

import (
	"context"
	"time"

	"signal-bot/pkg/config"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/telemetry"
)

// newGate is the outbound budget and 429 pause of the Safety settings.
func newGate(s config.Safety) *outbound.Gate {
	chat, attach, _ := s.Budgets() // checked by config.Load
	return outbound.New(outbound.Config{
		Budget: s.BudgetOn(),
		ChatN:  chat.N, ChatPer: chat.Per,
		AttachN: attach.N, AttachPer: attach.Per,
		WaitMax:  s.SendWaitMax,
		PauseMin: s.RateLimitPause, PauseMax: s.RateLimitPauseMax,
	})
}

// keepMembers lists the account's groups every MEMBERS_REFRESH, so that direct chats
// with people who joined a configured group are answered (ANSWER_IN=members) and those
// who left are not. A failed listing keeps the last list. It returns when ctx ends.
func (a *App) keepMembers(ctx context.Context) {
	if !a.audience.NeedsMembers() {
		return
	}
	t := time.NewTicker(a.cfg.Safety.MembersRefresh)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		list, err := a.api.Groups(ctx)
		if err != nil {
			a.log.Warn("could not list the groups' members; keeping the last list", "err", telemetry.RedactErr(err))
			continue
		}
		a.audience.SetMembers(list, a.groups)
	}
}
