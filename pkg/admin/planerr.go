package admin

import (
	"signal-bot/pkg/commands"
	"signal-bot/pkg/schedule"
)

// maxPlanBytes bounds a plan an admin sets: as long as SCHEDULE may be,
// the most one environment variable holds on Linux (MAX_ARG_STRLEN).
const maxPlanBytes = 128 << 10

// The texts of a refused plan.
const (
	keyPlanLong      key = "bot.plan_long"       // %[1]d: the plan's bytes, %[2]d: the most
	keySlotForm      key = "bot.slot_form"       // %[1]q: the slot
	keySlotTime      key = "bot.slot_time"       // %[1]q: the slot
	keySlotTwice     key = "bot.slot_twice"      // %[1]q: the slot
	keySlotNoChat    key = "bot.slot_no_chat"    // %[1]s: the slot, %[2]q: its chat, %[3]s: the aliases
	keySlotNoCommand key = "bot.slot_no_command" // %[1]s: the slot, %[2]q: its command, %[3]s: the commands
)

func planErrTexts() phrases {
	return phrases{
		"pl": {
			keyPlanLong:      "Plan ma %[1]d bajtów: najwyżej %[2]d, tyle co SCHEDULE.",
			keySlotForm:      "%[1]q to nie czat=komenda@GG:MM",
			keySlotTime:      "%[1]q: godzina ma być GG:MM, od 00:00 do 23:59",
			keySlotTwice:     "%[1]q jest w planie dwa razy",
			keySlotNoChat:    "%[1]s: nie ma grupy %[2]q w SIGNAL_GROUPS (są: %[3]s)",
			keySlotNoCommand: "%[1]s: nie ma komendy %[2]q (są: %[3]s)",
		},
		"en": {
			keyPlanLong:      "The plan is %[1]d bytes: at most %[2]d, as SCHEDULE.",
			keySlotForm:      "%[1]q is not chat=command@HH:MM",
			keySlotTime:      "%[1]q: the time must be HH:MM, 00:00 to 23:59",
			keySlotTwice:     "%[1]q is listed twice",
			keySlotNoChat:    "%[1]s: no group alias %[2]q in SIGNAL_GROUPS (the aliases: %[3]s)",
			keySlotNoCommand: "%[1]s: no command %[2]q (the commands: %[3]s)",
		},
	}
}

// planReasons lists why a plan was refused, in t's language, as many of
// its slots as fit in a budget of bytes.
func planReasons(err error, t texts) func(budget int) string {
	return func(budget int) string {
		bad := schedule.SlotErrors(err)
		if len(bad) == 0 { // not a refusal of slots: none of the bot's
			return commands.Truncate(err.Error(), budget)
		}
		out := make([]string, len(bad))
		for i, b := range bad {
			out[i] = slotReason(b, t)
		}
		return fitList(out, 0, "; ", budget, t)
	}
}

// slotReason is why one slot was refused, the slot cut to a line's length.
func slotReason(b *schedule.SlotError, t texts) string {
	slot, name := commands.Truncate(b.Item, 64), commands.Truncate(b.Name, commands.MaxNameRunes)
	switch b.Problem {
	case schedule.ProblemTime:
		return t.format(keySlotTime, slot)
	case schedule.ProblemTwice:
		return t.format(keySlotTwice, slot)
	case schedule.ProblemChat:
		return t.format(keySlotNoChat, slot, name, fitList(b.Known, 0, ", ", 200, t))
	case schedule.ProblemCommand:
		return t.format(keySlotNoCommand, slot, name, fitList(b.Known, 0, ", ", 200, t))
	}
	return t.format(keySlotForm, slot)
}

// merge is the phrases of ps together, for a verb whose texts are in more
// than one file.
func merge(ps ...phrases) phrases {
	out := phrases{}
	for _, p := range ps {
		for lang, m := range p {
			if out[lang] == nil {
				out[lang] = map[key]string{}
			}
			for k, v := range m {
				out[lang][k] = v
			}
		}
	}
	return out
}
