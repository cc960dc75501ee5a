package app

import (
	"context"
	"net/url"
	"time"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/config"
	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/standing"
	"signal-bot/pkg/telemetry"
)

// safety is whom and how fast the bot answers, and the account's standing
// with Signal that the answers to its sends tell.
type safety struct {
	groups   bot.Groups
	audience *bot.Audience // ANSWER_IN
	gate     *outbound.Gate
	account  *standing.Account
}

// newSafety resolves SIGNAL_GROUPS and builds ANSWER_IN's audience, the
// outbound gate and the account's standing over p's log, metrics and sender
// hash key, with api to submit a captcha to. Nothing in it needs closing.
func newSafety(cfg config.Config, api *signalapi.Client, p botParts) (safety, error) {
	groups, err := resolveGroups(cfg.Commands)
	if err != nil {
		return safety{}, err
	}
	audience, err := bot.NewAudience(cfg.Bot.AnswerIn, groups)
	if err != nil {
		return safety{}, err
	}
	gate := outbound.New(cfg.Safety.Config)
	acct := standing.New(standing.Deps{
		Gate: gate, Log: p.log, HashKey: p.state.hashKey, Recorder: p.metrics, Challenger: api,
		ChallengeURL: cfg.Signal.BaseURL + "/v1/accounts/" + url.PathEscape(cfg.Signal.Number) + "/rate-limit-challenge",
	})
	return safety{groups: groups, audience: audience, gate: gate, account: acct}, nil
}

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
		a.bot.LearnSelf(list)
	}
}
