package commands

// polish is REPLY_LANG=pl, the default.
func polish() map[Key]string {
	return map[Key]string{
		KeyUpstreamFailed: "Przepraszam, nie udało się teraz pobrać obrazka. Spróbuj za chwilę.",
		KeyInternal:       "Przepraszam, coś poszło nie tak. Spróbuj za chwilę.",
		KeyUnknown:        "Nie znam komendy !%[1]s. Napisz !pomoc, aby zobaczyć listę komend.",
		KeyNotHere:        "Komenda !%[1]s nie działa w tym czacie. Napisz !pomoc, aby zobaczyć, co tu działa.",
		KeyCooldown:       "Poczekaj jeszcze %[1]s, zanim znów użyjesz !%[2]s.",
		KeyHelpHeader:     "Komendy w tym czacie:",
		KeyHelpEvery:      " (co %[1]s)",
		KeyJaHeader:       "Statystyki: %[1]s",
		KeyJaYou:          "Ty",
		KeyJaNothing:      "Jeszcze nic.",
		KeyJaAgain:        ", znów za %[1]s",
		KeyTimesOne:       "1 raz",
		KeyTimesMany:      "%[1]d razy",
		KeySummaryPomoc:   "ta lista",
		KeySummaryJa:      "twoje statystyki",
		KeySummaryCat:     "losowy kot z The Cat API",
		KeySummaryKot:     "losowy kot z Wikimedia Commons",
	}
}
