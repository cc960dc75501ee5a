package commands

import "time"

// Cat is !cat: a random picture from The Cat API, through src, within timeout.
func Cat(src PictureSource, timeout time.Duration) *Command {
	return PictureCommand("cat", nil, Phrases{
		"pl": {SummaryKey("cat"): "losowy kot z The Cat API"},
		"en": {SummaryKey("cat"): "a random cat from The Cat API"},
	}, "🐱", 30*time.Second, timeout, src)
}
