package commands

import (
	"fmt"
	"math"
	"time"
)

// Replies in Polish. Every reply stays far below Signal's 2000-byte body.
const (
	TextUpstreamFailed = "Przepraszam, nie udało się teraz pobrać obrazka. Spróbuj za chwilę."
	TextInternal       = "Przepraszam, coś poszło nie tak. Spróbuj za chwilę."
)

// TextUnknown is the hint for an unknown command.
func TextUnknown(name string) string {
	return fmt.Sprintf("Nie znam komendy !%s. Napisz !pomoc, aby zobaczyć listę komend.", name)
}

// TextNotHere says a command does not answer in this chat.
func TextNotHere(name string) string {
	return fmt.Sprintf("Komenda !%s nie działa w tym czacie. Napisz !pomoc, aby zobaczyć, co tu działa.", name)
}

// TextCooldown says how long to wait.
func TextCooldown(name string, left time.Duration) string {
	return fmt.Sprintf("Poczekaj jeszcze %s, zanim znów użyjesz !%s.", Seconds(left), name)
}

// Seconds renders a duration for people, rounded up: "1 s", "2 min 5 s".
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

// Times is the Polish count of "times": 1 raz, 2 razy, 5 razy.
func Times(n int64) string {
	if n == 1 {
		return "1 raz"
	}
	return fmt.Sprintf("%d razy", n)
}
