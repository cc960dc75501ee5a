package commands

import "maps"

// polish is REPLY_LANG=pl, the default.
func polish() map[Key]string {
	t := map[Key]string{
		KeyUpstreamFailed: "Przepraszam, nie udało się teraz pobrać obrazka. Spróbuj za chwilę.",
		KeyInternal:       "Przepraszam, coś poszło nie tak. Spróbuj za chwilę.",
		KeyUnknown:        "Nie znam komendy !%[1]s. Napisz !pomoc, aby zobaczyć listę komend.",
		KeyNotHere:        "Komenda !%[1]s nie działa w tym czacie. Napisz !pomoc, aby zobaczyć, co tu działa.",
		KeyCooldown:       "Poczekaj jeszcze %[1]s, zanim znów użyjesz !%[2]s.",
	}
	maps.Copy(t, polishAdmin())
	return t
}

// polishAdmin is the admin's texts (!bot and !bot status) of polish().
func polishAdmin() map[Key]string {
	return map[Key]string{
		KeyBotUsage:         "Komendy administratora (w czacie z botem):",
		KeyBotUsageStatus:   "• !bot status — stan bota",
		KeyBotUsageCooldown: "• !bot cooldown <komenda> <czas> — np. !bot cooldown kot 1m (0s: bez)",
		KeyBotUsageScope:    "• !bot scope <komenda> <zakres> — *, direct, groups lub alias grupy, łączone |",
		KeyBotUsageOff:      "• !bot off <komenda> — wyłącza komendę",
		KeyBotUsageOn:       "• !bot on <komenda> — włącza ją z powrotem",
		KeyBotUsagePauza:    "• !bot pauza <czas> — bot milczy przez ten czas (0s: koniec pauzy)",
		KeyBotUsageReset:    "• !bot reset — usuwa zmiany z czatu (także plan postów), wracają ustawienia ze środowiska",
		KeyBotUsagePlan:     "• !bot plan [<plan>] — posty o stałych porach: pokazuje plan albo go zastępuje, np. !bot plan rodzina=kot@08:00,testbot=cat@12:30 (-: żadnych)",
		KeyBotPlan:          "Plan postów: %[1]s (%[2]s).",
		KeyBotPlanChat:      "ustawiony w czacie, !bot reset wraca do SCHEDULE",
		KeyBotPlanEnv:       "z SCHEDULE",
		KeyBotPlanSet:       "Nowy plan postów: %[1]s.",
		KeyBotBadPlan:       "Zły plan: %[1]s.",
		KeyBotPlanOff:       "Posty o stałych porach nie działają w tym bocie.",
		KeyBotNoCommand:     "Nie ma komendy !%[1]s.",
		KeyBotBadDuration:   "Nie rozumiem czasu %[1]q: napisz np. 30s, 5m albo 2h (najwyżej %[2]s).",
		KeyBotBadScope:      "Zły zakres: %[1]s.",
		KeyBotCooldown:      "Komenda !%[1]s: co %[2]s (środowisko: %[3]s).",
		KeyBotScope:         "Komenda !%[1]s działa teraz w: %[2]s.",
		KeyBotOff:           "Komenda !%[1]s wyłączona.",
		KeyBotOn:            "Komenda !%[1]s włączona.",
		KeyBotPaused:        "Pauza do %[1]s: do tego czasu odpowiadam tylko na !bot.",
		KeyBotUnpaused:      "Koniec pauzy.",
		KeyBotReset:         "Zmiany z czatu usunięte: obowiązują ustawienia ze środowiska.",
		KeyStatusVersion:    "signal-bot %[1]s, działa od %[2]s",
		KeyStatusReceive:    "odbiór: %[1]s, %[2]s, ostatnia wiadomość: %[3]s",
		KeyStatusUp:         "połączony",
		KeyStatusDown:       "bez połączenia",
		KeyStatusNever:      "brak",
		KeyStatusAgo:        "%[1]s temu",
		KeyStatusQueue:      "kolejka: %[1]d/%[2]d, w toku %[3]d/%[4]d, odrzucone %[5]d",
		KeyStatusBudget:     "budżet odpowiedzi (%[1]d na %[2]s), zostało: %[3]s",
		KeyStatusBudgetOff:  "budżet odpowiedzi: wyłączony",
		KeyStatus429:        "ostatni 429: %[1]s",
		KeyStatusSendPause:  "wysyłanie wstrzymane po 429 do %[1]s",
		KeyStatusPause:      "pauza (!bot pauza) do %[1]s",
		KeyStatusJournal:    "dziennik: %[1]d czeka, %[2]d powtórzone przy starcie",
		KeyStatusJournalOff: "dziennik: wyłączony",
		KeyStatusChanges:    "zmiany z czatu: %[1]s",
		KeyStatusNone:       "brak",
		KeyStatusSchedule:   "najbliższe posty: %[1]s",
	}
}
