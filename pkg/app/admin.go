package app

import (
	"fmt"
	"log/slog"
	"time"

	"signal-bot/pkg/admin"
	"signal-bot/pkg/bot"
	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"
	"signal-bot/pkg/schedule"
	"signal-bot/pkg/store"
)

// loadChanges reads the changes admins made in chat from the state file;
// scopes name the configured groups by alias.
func loadChanges(st *store.Store, groups bot.Groups, log *slog.Logger) (*admin.Changes, error) {
	return admin.LoadChanges(st, groups.Aliases(), log)
}

// newConsole builds the admins' console (!bot) over what New built: the
// bot's intake for its figures, the bot for its account (!bot captcha, the
// unreachable members), the scheduler for !bot plan. The bot gets it with
// SetConsole before Run.
func newConsole(cfg config.Config, p botParts, reg *commands.Registry, b *bot.Bot, intake *bot.Intake, s *schedule.Scheduler) (*admin.Console, error) {
	admins, err := admin.ParseAdmins(cfg.Admin.Admins) // checked by config.Load: no error here
	if err != nil {
		return nil, fmt.Errorf("configuration: %w", err)
	}
	return admin.New(admin.Deps{
		Registry: reg, Changes: p.changes, Texts: p.texts, Admins: admins, Lang: cfg.Commands.ReplyLang, Log: p.log,
		Gate: p.safety.gate, Groups: p.safety.groups, Figures: intake, Account: p.safety.account, Planner: planner{s},
		Status: admin.StatusInfo{Version: p.version, Started: time.Now(), ReceiveMode: cfg.Signal.ReceiveMode, Connected: p.up},
	})
}
