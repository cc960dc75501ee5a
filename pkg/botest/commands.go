package botest

import (
	"context"

	"signal-bot/pkg/commands"
)

// Panicky is a test-only command whose handler panics, as a bug in a
// command would; add it with h.Commands before Start.
func Panicky(name string) *commands.Command {
	return &commands.Command{Name: name, Summary: "test", Scope: commands.Everywhere,
		Run: func(context.Context, commands.Request) (commands.Reply, error) {
			panic("boom in a command")
		}}
}
