package commands

import "time"

// Kot is !kot: a random cat photo from Wikimedia Commons, through src,
// within timeout.
func Kot(src PictureSource, timeout time.Duration) *Command {
	return PictureCommand("kot", []string{"kitku"}, Phrases{
		"pl": {SummaryKey("kot"): "losowy kot z Wikimedia Commons"},
		"en": {SummaryKey("kot"): "a random cat photo from Wikimedia Commons"},
	}, "🐈", 30*time.Second, timeout, src)
}
