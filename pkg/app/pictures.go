package app

import (
	"context"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/upstream"
)

// randomImager is an upstream client that fetches one random picture.
type randomImager interface {
	Random(ctx context.Context) (upstream.Image, error)
}

// fetcher serves each picture straight from its upstream, inline.
type fetcher struct{ src randomImager }

func (f fetcher) Picture(ctx context.Context) (commands.Picture, error) {
	img, err := f.src.Random(ctx)
	if err != nil {
		return commands.Picture{}, err
	}
	return commands.Picture{
		DataURI: signalapi.DataURI(img.MIME, img.Filename, img.Data), MIME: img.MIME, Filename: img.Filename,
		Bytes: len(img.Data), Width: img.Width, Height: img.Height,
	}, nil
}
