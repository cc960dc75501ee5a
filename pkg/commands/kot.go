package commands

import "time"

// Kot is !kot: a random cat photo from Wikimedia Commons, through src,
// within timeout.
func Kot(src PictureSource, timeout time.Duration) *Command {
	return PictureCommand("kot", []string{"kitku"}, "losowy kot z Wikimedia Commons", "🐈", 30*time.Second, timeout, src)
}
