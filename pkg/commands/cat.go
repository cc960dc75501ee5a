package commands

import "time"

// Cat is !cat: a random picture from The Cat API, through src, within timeout.
func Cat(src PictureSource, timeout time.Duration) *Command {
	return PictureCommand("cat", nil, Texts{}.Summary("cat"), "🐱", 30*time.Second, timeout, src)
}
