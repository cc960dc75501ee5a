package app

import (
	"context"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/telemetry"
)

// checkGroups asks the REST API which groups the account is in and warns
// about configured aliases it is not a member of (a typo in SIGNAL_GROUPS, or a
// group the bot was removed from). It never stops the start.
func (a *App) checkGroups(ctx context.Context, groups bot.Groups) {
	list, err := a.api.Groups(ctx)
	if err != nil {
		a.log.Warn("could not list the account's groups", "err", telemetry.RedactErr(err))
		return
	}
	member := make(map[string]bool, len(list))
	for _, g := range list {
		member[g.InternalID] = true
	}
	for alias, id := range groups.Aliases() {
		if !member[id] {
			a.log.Warn("configured group is not among the account's groups", "alias", alias)
		}
	}
	a.log.Info("groups", "member_of", len(list), "configured", len(groups.Aliases()))
}
