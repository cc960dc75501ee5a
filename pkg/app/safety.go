package app

import (
	"context"
	"time"

	"signal-bot/pkg/telemetry"
)

// keepMembers lists the account's groups every MEMBERS_REFRESH, so that direct chats
// with people who joined a configured group are answered (ANSWER_IN=members) and those
// who left are not. A failed listing keeps the last list. It returns when ctx ends.
func (a *App) keepMembers(ctx context.Context) {
	if !a.audience.NeedsMembers() {
		return
	}
	t := time.NewTicker(a.cfg.Bot.MembersRefresh)
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
