package botest

import (
	"strings"

	"signal-bot/pkg/fakeup"
)

// The fake upstreams' pictures are PictureWidth × PictureHeight unless a
// test asks for others (UsePictures): within SHRINK_LONG_EDGE and
// SHRINK_KEEP_BYTES, so a picture is sent as it came and a test does not
// spend seconds of -race CPU on decoding and shrinking it. The shrink is
// pkg/pictures' tests', and TestEachCommandInGroupAndDirect (pkg/commands)
// runs it through the whole bot with full-size pictures.
const (
	PictureWidth  = 640
	PictureHeight = 480
)

// FullSize is the fake upstreams' own default size, a camera's photo.
const FullSize = 1600

// UsePictures has the fake upstreams serve width × height pictures (a new
// fake, so call it before setting faults on h.Up and before Start).
func (h *Harness) UsePictures(width, height int) {
	h.T.Helper()
	up := fakeup.New(fakeup.Config{Width: width, Height: height})
	if _, err := up.Start("127.0.0.1:0"); err != nil {
		h.T.Fatal(err)
	}
	old := h.Up
	h.Up = up
	old.Close()
	h.Env["CAT_API_URL"], h.Env["COMMONS_API_URL"] = up.CatAPIURL(), up.CommonsAPIURL()
	h.Env["UPSTREAM_ALLOW"] = strings.Replace(h.Env["UPSTREAM_ALLOW"], old.Addr(), up.Addr(), 1)
}
