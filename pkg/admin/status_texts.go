package admin

// The texts of !bot status, each line's.
const (
	keyStatusVersion    key = "status.version"     // %[1]s: the version, %[2]s: the uptime
	keyStatusReceive    key = "status.receive"     // %[1]s: the mode, %[2]s: keyStatusUp or keyStatusDown, %[3]s: the last frame's age or keyStatusNever
	keyStatusUp         key = "status.up"          //
	keyStatusDown       key = "status.down"        //
	keyStatusNever      key = "status.never"       //
	keyStatusAgo        key = "status.ago"         // %[1]s: a duration
	keyStatusQueue      key = "status.queue"       // %[1]d/%[2]d queued, %[3]d/%[4]d running, %[5]d dropped
	keyStatusBudget     key = "status.budget"      // %[1]d: the burst, %[2]s: its period, %[3]s: "alias tokens, …"
	keyStatusBudgetOff  key = "status.budget_off"  //
	keyStatus429        key = "status.429"         // %[1]s: the last 429's time or keyStatusNever
	keyStatusSendPause  key = "status.send_pause"  // %[1]s: until when
	keyStatusPause      key = "status.pause"       // %[1]s: until when (!bot pauza)
	keyStatusJournal    key = "status.journal"     // %[1]d pending, %[2]d replayed at start
	keyStatusJournalOff key = "status.journal_off" //
	keyStatusChanges    key = "status.changes"     // %[1]s: the chat's changes, or keyNone

	keyStatusUnreachable  key = "status.unreachable"  // %[1]d members, %[2]s: keyStatusIdentity, keyStatusUnregistered, %[3]s: since when
	keyStatusIdentity     key = "status.identity"     // %[1]d members whose safety number changed
	keyStatusUnregistered key = "status.unregistered" // %[1]d members who left Signal
	keyStatusTrust        key = "status.trust"        // what to do about a changed safety number
)

func statusTexts() phrases {
	return phrases{
		"pl": {
			usageKey("status"):  "• !bot status — stan bota",
			keyStatusVersion:    "signal-bot %[1]s, działa od %[2]s",
			keyStatusReceive:    "odbiór: %[1]s, %[2]s, ostatnia wiadomość: %[3]s",
			keyStatusUp:         "połączony",
			keyStatusDown:       "bez połączenia",
			keyStatusNever:      "brak",
			keyStatusAgo:        "%[1]s temu",
			keyStatusQueue:      "kolejka: %[1]d/%[2]d, w toku %[3]d/%[4]d, odrzucone %[5]d",
			keyStatusBudget:     "budżet odpowiedzi (%[1]d na %[2]s), zostało: %[3]s",
			keyStatusBudgetOff:  "budżet odpowiedzi: wyłączony",
			keyStatus429:        "ostatni 429: %[1]s",
			keyStatusSendPause:  "wysyłanie wstrzymane po 429 do %[1]s",
			keyStatusPause:      "pauza (!bot pauza) do %[1]s",
			keyStatusJournal:    "dziennik: %[1]d czeka, %[2]d powtórzone przy starcie",
			keyStatusJournalOff: "dziennik: wyłączony",
			keyStatusChanges:    "zmiany z czatu: %[1]s",

			keyStatusUnreachable:  "odpowiedzi nie docierają do członków: %[1]d (%[2]s), od %[3]s",
			keyStatusIdentity:     "zmieniony numer bezpieczeństwa: %[1]d",
			keyStatusUnregistered: "nie ma ich już w Signalu: %[1]d",
			keyStatusTrust:        "; zaufaj ich nowym numerom bezpieczeństwa w REST API (/v1/identities/…/trust)",
		},
		"en": {
			usageKey("status"):  "• !bot status — the bot's state",
			keyStatusVersion:    "signal-bot %[1]s, up for %[2]s",
			keyStatusReceive:    "receiving: %[1]s, %[2]s, last message: %[3]s",
			keyStatusUp:         "connected",
			keyStatusDown:       "not connected",
			keyStatusNever:      "none",
			keyStatusAgo:        "%[1]s ago",
			keyStatusQueue:      "queue: %[1]d/%[2]d, running %[3]d/%[4]d, dropped %[5]d",
			keyStatusBudget:     "reply budget (%[1]d per %[2]s), left: %[3]s",
			keyStatusBudgetOff:  "reply budget: off",
			keyStatus429:        "last 429: %[1]s",
			keyStatusSendPause:  "sends paused after a 429 until %[1]s",
			keyStatusPause:      "paused (!bot pauza) until %[1]s",
			keyStatusJournal:    "journal: %[1]d pending, %[2]d replayed at start",
			keyStatusJournalOff: "journal: off",
			keyStatusChanges:    "changes made in chat: %[1]s",

			keyStatusUnreachable:  "replies do not reach members: %[1]d (%[2]s), since %[3]s",
			keyStatusIdentity:     "safety number changed: %[1]d",
			keyStatusUnregistered: "no longer on Signal: %[1]d",
			keyStatusTrust:        "; trust their new safety numbers in the REST API (/v1/identities/…/trust)",
		},
	}
}
