package commands

// polish is REPLY_LANG=pl, the default.
func polish() map[Key]string {
	return map[Key]string{
		KeyUpstreamFailed: "Przepraszam, nie udało się teraz pobrać obrazka. Spróbuj za chwilę.",
		KeyInternal:       "Przepraszam, coś poszło nie tak. Spróbuj za chwilę.",
		KeyUnknown:        "Nie znam komendy !%[1]s. Napisz !pomoc, aby zobaczyć listę komend.",
		KeyNotHere:        "Komenda !%[1]s nie działa w tym czacie. Napisz !pomoc, aby zobaczyć, co tu działa.",
		KeyCooldown:       "Poczekaj jeszcze %[1]s, zanim znów użyjesz !%[2]s.",
	}
}
