package pictures

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"

	// Register the decoders image.Decode needs; WebP is decoded, never encoded.
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"
)

// formatMIME maps an image.Decode format name to its MIME type.
func formatMIME(format string) string {
	switch format {
	case "jpeg", "png", "gif", "webp":
		return "image/" + format
	}
	return ""
}

// decoded is a fully decoded picture.
type decoded struct {
	img           image.Image // for an animated GIF, its first frame on the full canvas
	mime          string
	width, height int
	animated      bool
}

// decode reads the header of data, refuses pictures over maxPixels before
// allocating their pixels, and then decodes every pixel, so that truncated or
// corrupt data is caught here and never sent.
func decode(data []byte, maxPixels int) (decoded, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return decoded{}, fmt.Errorf("%w: header: %v", ErrUndecodable, err)
	}
	mime := formatMIME(format)
	switch {
	case mime == "":
		return decoded{}, fmt.Errorf("%w: unsupported format %q", ErrUndecodable, format)
	case cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > int64(maxPixels):
		return decoded{}, fmt.Errorf("%w: %dx%d is over %d pixels or empty", ErrUndecodable, cfg.Width, cfg.Height, maxPixels)
	}
	d := decoded{mime: mime, width: cfg.Width, height: cfg.Height}
	if format == "gif" {
		g, err := gif.DecodeAll(bytes.NewReader(data))
		if err != nil {
			return decoded{}, fmt.Errorf("%w: gif: %v", ErrUndecodable, err)
		}
		d.animated = len(g.Image) > 1
		d.img = firstFrame(g, cfg.Width, cfg.Height)
		return d, nil
	}
	if d.img, _, err = image.Decode(bytes.NewReader(data)); err != nil {
		return decoded{}, fmt.Errorf("%w: %s: %v", ErrUndecodable, format, err)
	}
	return d, nil
}

// firstFrame returns a GIF's first frame; a frame smaller than the logical
// screen is drawn on a canvas of the screen's size.
func firstFrame(g *gif.GIF, w, h int) image.Image {
	f := g.Image[0]
	if f.Bounds() == image.Rect(0, 0, w, h) {
		return f
	}
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	fillWhite(canvas)
	drawOver(canvas, f)
	return canvas
}
