package app

import (
	"context"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// checkGroups asks the REST API which groups the account is in and warns
// about configured aliases it is not a member of (a typo in SIGNAL_GROUPS, or a
// group the bot was removed from). It never stops the start. It returns the
// listing, in which the bot finds its own uuid (Bot.LearnSelf, done here once
// the bot is built).
func (a *App) checkGroups(ctx context.Context, groups bot.Groups) []signalapi.Group {
	list, err := a.api.Groups(ctx)
	if err != nil {
		a.log.Warn("could not list the account's groups", "err", telemetry.RedactErr(err))
		return nil
	}
	if a.audience.NeedsMembers() {
		a.audience.SetMembers(list, groups)
	}
	if a.bot != nil {
		a.bot.LearnSelf(list)
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
	return list
}
