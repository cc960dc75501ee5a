package commands

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Picture is an image ready to send: already encoded as the data URI
// /v2/send takes, with what the logs and tests need to know of it.
type Picture struct {
	DataURI       string
	MIME          string
	Filename      string
	Bytes         int
	Width, Height int
}

// PictureSource hands out pictures (straight from an upstream, or from a pool).
type PictureSource interface {
	Picture(ctx context.Context) (Picture, error)
}

// ErrUpstream marks a failure of a picture source; the user gets an apology.
var ErrUpstream = errors.New("picture source failed")

// PictureCommand is a command that answers with one picture from src.
func PictureCommand(name string, aliases []string, ph Phrases, caption string, cooldown time.Duration, timeout time.Duration, src PictureSource) *Command {
	return &Command{
		Name: name, Aliases: aliases, Phrases: ph, Summary: ph["pl"][SummaryKey(name)], Cooldown: cooldown, Scope: Everywhere, Typing: true, Pictures: 1,
		Run: func(ctx context.Context, req Request) (Reply, error) {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			p, err := src.Picture(ctx)
			if err != nil {
				return Reply{Text: req.Texts.UpstreamFailed()}, fmt.Errorf("%w: !%s: %w", ErrUpstream, name, err)
			}
			return Reply{Text: caption, Pictures: []Picture{p}}, nil
		},
	}
}
