package commands

import "maps"

// english is REPLY_LANG=en.
func english() map[Key]string {
	t := map[Key]string{
		KeyUpstreamFailed: "Sorry, I could not fetch a picture just now. Try again in a moment.",
		KeyInternal:       "Sorry, something went wrong. Try again in a moment.",
		KeyUnknown:        "I do not know the command !%[1]s. Write !help to see the list of commands.",
		KeyNotHere:        "The command !%[1]s does not work in this chat. Write !help to see what works here.",
		KeyCooldown:       "Wait %[1]s more before you use !%[2]s again.",
	}
	maps.Copy(t, englishAdmin())
	return t
}

// englishAdmin is the admin's texts (!bot and !bot status) of english().
func englishAdmin() map[Key]string {
	return map[Key]string{
		KeyBotUsage:         "Admin commands (in a chat with the bot):",
		KeyBotUsageStatus:   "• !bot status — the bot's state",
		KeyBotUsageCooldown: "• !bot cooldown <command> <duration> — e.g. !bot cooldown kot 1m (0s: none)",
		KeyBotUsageScope:    "• !bot scope <command> <scope> — *, direct, groups or a group alias, joined with |",
		KeyBotUsageOff:      "• !bot off <command> — switches the command off",
		KeyBotUsageOn:       "• !bot on <command> — switches it back on",
		KeyBotUsagePauza:    "• !bot pauza <duration> — the bot stays silent that long (0s: end the pause)",
		KeyBotUsageReset:    "• !bot reset — drops the changes made in chat (the plan of posts too), the environment's settings apply again",
		KeyBotUsagePlan:     "• !bot plan [<plan>] — scheduled posts: shows the plan or replaces it, e.g. !bot plan rodzina=kot@08:00,testbot=cat@12:30 (-: none)",
		KeyBotPlan:          "Scheduled posts: %[1]s (%[2]s).",
		KeyBotPlanChat:      "set in chat, !bot reset goes back to SCHEDULE",
		KeyBotPlanEnv:       "from SCHEDULE",
		KeyBotPlanSet:       "New plan of posts: %[1]s.",
		KeyBotBadPlan:       "Bad plan: %[1]s.",
		KeyBotPlanOff:       "Scheduled posts do not work in this bot.",
		KeyBotNoCommand:     "There is no command !%[1]s.",
		KeyBotBadDuration:   "I do not understand the duration %[1]q: write e.g. 30s, 5m or 2h (at most %[2]s).",
		KeyBotBadScope:      "Bad scope: %[1]s.",
		KeyBotCooldown:      "Command !%[1]s: every %[2]s (environment: %[3]s).",
		KeyBotScope:         "Command !%[1]s now works in: %[2]s.",
		KeyBotOff:           "Command !%[1]s switched off.",
		KeyBotOn:            "Command !%[1]s switched on.",
		KeyBotPaused:        "Paused until %[1]s: until then I answer only !bot.",
		KeyBotUnpaused:      "Pause over.",
		KeyBotReset:         "Changes made in chat dropped: the environment's settings apply.",
		KeyStatusVersion:    "signal-bot %[1]s, up for %[2]s",
		KeyStatusReceive:    "receiving: %[1]s, %[2]s, last message: %[3]s",
		KeyStatusUp:         "connected",
		KeyStatusDown:       "not connected",
		KeyStatusNever:      "none",
		KeyStatusAgo:        "%[1]s ago",
		KeyStatusQueue:      "queue: %[1]d/%[2]d, running %[3]d/%[4]d, dropped %[5]d",
		KeyStatusBudget:     "reply budget (%[1]d per %[2]s), left: %[3]s",
		KeyStatusBudgetOff:  "reply budget: off",
		KeyStatus429:        "last 429: %[1]s",
		KeyStatusSendPause:  "sends paused after a 429 until %[1]s",
		KeyStatusPause:      "paused (!bot pauza) until %[1]s",
		KeyStatusJournal:    "journal: %[1]d pending, %[2]d replayed at start",
		KeyStatusJournalOff: "journal: off",
		KeyStatusChanges:    "changes made in chat: %[1]s",
		KeyStatusNone:       "none",
		KeyStatusSchedule:   "next posts: %[1]s",
	}
}
