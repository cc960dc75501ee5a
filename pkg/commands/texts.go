package commands

import (
	"fmt"
	"math"
	"time"
)

// Key names one user-facing text. Every language's table has every key (a test
// checks), each with the same fmt verbs in the same order.
type Key string

// The texts the bot says for every command: refusals, hints and apologies.
// A command's own texts (its !pomoc summary, what it replies) are in its
// file, as its Phrases.
const (
	KeyUpstreamFailed Key = "upstream_failed" // a picture could not be fetched
	KeyInternal       Key = "internal"        // anything else went wrong
	KeyUnknown        Key = "unknown"         // %[1]s: the unknown name
	KeyNotHere        Key = "not_here"        // %[1]s: the command
	KeyCooldown       Key = "cooldown"        // %[1]s: the wait (Seconds), %[2]s: the command
)

// The admin's texts (!bot, pkg/bot/admin.go): its usage, one line per
// subcommand (KeyBotUsage + "." + the subcommand), its answers, and the
// lines of !bot status.
const (
	KeyBotUsage         Key = "bot.usage"          // the header of the usage
	KeyBotUsageStatus   Key = "bot.usage.status"   //
	KeyBotUsageCooldown Key = "bot.usage.cooldown" //
	KeyBotUsageScope    Key = "bot.usage.scope"    //
	KeyBotUsageOff      Key = "bot.usage.off"      //
	KeyBotUsageOn       Key = "bot.usage.on"       //
	KeyBotUsagePauza    Key = "bot.usage.pauza"    //
	KeyBotUsageReset    Key = "bot.usage.reset"    //
	KeyBotUsagePlan     Key = "bot.usage.plan"     //
	KeyBotPlan          Key = "bot.plan"           // %[1]s: the plan or KeyStatusNone, %[2]s: KeyBotPlanChat or KeyBotPlanEnv
	KeyBotPlanChat      Key = "bot.plan_chat"      //
	KeyBotPlanEnv       Key = "bot.plan_env"       //
	KeyBotPlanSet       Key = "bot.plan_set"       // %[1]s: the plan or KeyStatusNone
	KeyBotBadPlan       Key = "bot.bad_plan"       // %[1]s: why
	KeyBotPlanOff       Key = "bot.plan_off"       // no scheduler in this bot
	KeyBotNoCommand     Key = "bot.no_command"     // %[1]s: the name given
	KeyBotBadDuration   Key = "bot.bad_duration"   // %[1]s: the text given, %[2]s: the longest allowed
	KeyBotBadScope      Key = "bot.bad_scope"      // %[1]s: why
	KeyBotCooldown      Key = "bot.cooldown"       // %[1]s: the command, %[2]s: the cooldown, %[3]s: the environment's
	KeyBotScope         Key = "bot.scope"          // %[1]s: the command, %[2]s: the scope
	KeyBotOff           Key = "bot.off"            // %[1]s: the command
	KeyBotOn            Key = "bot.on"             // %[1]s: the command
	KeyBotPaused        Key = "bot.paused"         // %[1]s: until when
	KeyBotUnpaused      Key = "bot.unpaused"       //
	KeyBotReset         Key = "bot.reset"          //
	KeyStatusVersion    Key = "status.version"     // %[1]s: the version, %[2]s: the uptime
	KeyStatusReceive    Key = "status.receive"     // %[1]s: the mode, %[2]s: KeyStatusUp or KeyStatusDown, %[3]s: the last frame's age or KeyStatusNever
	KeyStatusUp         Key = "status.up"          //
	KeyStatusDown       Key = "status.down"        //
	KeyStatusNever      Key = "status.never"       //
	KeyStatusAgo        Key = "status.ago"         // %[1]s: a duration
	KeyStatusQueue      Key = "status.queue"       // %[1]d/%[2]d queued, %[3]d/%[4]d running, %[5]d dropped
	KeyStatusBudget     Key = "status.budget"      // %[1]d: the burst, %[2]s: its period, %[3]s: "alias tokens, …"
	KeyStatusBudgetOff  Key = "status.budget_off"  //
	KeyStatus429        Key = "status.429"         // %[1]s: the last 429's time or KeyStatusNever
	KeyStatusSendPause  Key = "status.send_pause"  // %[1]s: until when
	KeyStatusPause      Key = "status.pause"       // %[1]s: until when (!bot pauza)
	KeyStatusJournal    Key = "status.journal"     // %[1]d pending, %[2]d replayed at start
	KeyStatusJournalOff Key = "status.journal_off" //
	KeyStatusChanges    Key = "status.changes"     // %[1]s: the chat's changes, or KeyStatusNone
	KeyStatusNone       Key = "status.none"        //
	KeyStatusSchedule   Key = "status.schedule"    // %[1]s: "slot time, …" or KeyStatusNone
)

// Keys lists every key, for the completeness test and REPLY_LANG's checks.
func Keys() []Key {
	return []Key{KeyUpstreamFailed, KeyInternal, KeyUnknown, KeyNotHere, KeyCooldown,
		KeyBotUsage, KeyBotUsageStatus, KeyBotUsageCooldown, KeyBotUsageScope, KeyBotUsageOff, KeyBotUsageOn,
		KeyBotUsagePauza, KeyBotUsageReset, KeyBotNoCommand, KeyBotBadDuration, KeyBotBadScope, KeyBotCooldown,
		KeyBotScope, KeyBotOff, KeyBotOn, KeyBotPaused, KeyBotUnpaused, KeyBotReset,
		KeyBotUsagePlan, KeyBotPlan, KeyBotPlanChat, KeyBotPlanEnv, KeyBotPlanSet, KeyBotBadPlan, KeyBotPlanOff,
		KeyStatusVersion, KeyStatusReceive, KeyStatusUp, KeyStatusDown, KeyStatusNever, KeyStatusAgo,
		KeyStatusQueue, KeyStatusBudget, KeyStatusBudgetOff, KeyStatus429, KeyStatusSendPause, KeyStatusPause,
		KeyStatusJournal, KeyStatusJournalOff, KeyStatusChanges, KeyStatusNone, KeyStatusSchedule}
}

// Languages lists REPLY_LANG's values; the first is the default.
func Languages() []string { return []string{"pl", "en"} }

// table is one language's texts, made afresh for each Texts so none is shared.
func table(lang string) map[Key]string {
	if lang == "en" {
		return english()
	}
	return polish()
}

// Texts is the bot's texts in one language (REPLY_LANG). The zero Texts speaks
// Polish, the default. It is read-only, so safe for concurrent use.
type Texts struct {
	lang string // a language of Languages(); "" is Polish
	m    map[Key]string
}

// TextsFor returns the texts of lang ("pl" or "en", which config checks);
// any other value is Polish.
func TextsFor(lang string) Texts {
	if lang != "en" {
		lang = "pl"
	}
	return Texts{lang: lang, m: table(lang)}
}

// Lang is the texts' language, "pl" for the zero Texts.
func (t Texts) Lang() string {
	if t.lang == "" {
		return "pl"
	}
	return t.lang
}

// Text is key's text, unformatted.
func (t Texts) Text(k Key) string {
	if t.m == nil {
		return polish()[k]
	}
	return t.m[k]
}

func (t Texts) format(k Key, args ...any) string { return fmt.Sprintf(t.Text(k), args...) }

// Format is key's text with args, for the texts other packages say (the
// admin's !bot, in package bot).
func (t Texts) Format(k Key, args ...any) string { return t.format(k, args...) }

// UpstreamFailed is the apology for a picture that could not be fetched.
func (t Texts) UpstreamFailed() string { return t.Text(KeyUpstreamFailed) }

// Internal is the apology for anything else that failed.
func (t Texts) Internal() string { return t.Text(KeyInternal) }

// Unknown is the hint for an unknown command.
func (t Texts) Unknown(name string) string { return t.format(KeyUnknown, name) }

// NotHere says a command does not answer in this chat.
func (t Texts) NotHere(name string) string { return t.format(KeyNotHere, name) }

// Cooldown says how long to wait.
func (t Texts) Cooldown(name string, left time.Duration) string {
	return t.format(KeyCooldown, Seconds(left), name)
}

// Seconds renders a duration for people, rounded up: "1 s", "2 min 5 s" (the
// same in both languages).
func Seconds(d time.Duration) string {
	s := int(math.Ceil(d.Seconds()))
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	default:
		return fmt.Sprintf("%d min %d s", s/60, s%60)
	}
}
