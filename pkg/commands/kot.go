package commands

import "time"

// Kot is !kot: a random cat photo from Wikimedia Commons, through src,
// within timeout.
func Kot(src PictureSource, timeout time.Duration) *Command {
	return PictureCommand("kot", []string{"kitku"}, Texts{}.Summary("kot"), "🐈", 30*time.Second, timeout, src)
}
