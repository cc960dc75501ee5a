package pictures

import (
	"bytes"
	"errors"
	"fmt"
	"image"

	// Register the decoders image.Decode needs; WebP is decoded, never encoded.
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"
)

// ErrTooBig means a picture's header promises more decode memory than the
// cap or the whole budget; it is refused before any pixel is allocated. It
// is an ErrUndecodable.
var ErrTooBig = fmt.Errorf("%w: over the decode memory cap", ErrUndecodable)

// formatMIME maps an image.Decode format name to its MIME type.
func formatMIME(format string) string {
	switch format {
	case "jpeg", "png", "gif", "webp":
		return "image/" + format
	}
	return ""
}

// header is what a picture's header promises, read before any pixel is
// allocated.
type header struct {
	format        string
	mime          string
	width, height int
	animated      bool
	cost          int64 // bytes that decoding and re-encoding allocate at most
}

// decoded is a fully decoded picture.
type decoded struct {
	img           image.Image // for an animated GIF, its first frame on the full canvas
	mime          string
	width, height int
	animated      bool
}

// readHeader reads data's header and what decoding it will cost, and
// refuses pictures over opts.MaxPixels or opts.MaxDecodeBytes.
func readHeader(data []byte, opts Options) (header, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return header{}, fmt.Errorf("%w: header: %v", ErrUndecodable, err)
	}
	h := header{format: format, mime: formatMIME(format), width: cfg.Width, height: cfg.Height}
	switch {
	case h.mime == "":
		return header{}, fmt.Errorf("%w: unsupported format %q", ErrUndecodable, format)
	case cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > int64(opts.MaxPixels):
		return header{}, fmt.Errorf("%w: %dx%d is over %d pixels or empty", ErrTooBig, cfg.Width, cfg.Height, opts.MaxPixels)
	}
	if format == "gif" {
		frames, complete := gifShape(data)
		if !complete {
			return header{}, fmt.Errorf("%w: gif: cut short after %d frames", ErrUndecodable, frames)
		}
		h.animated = frames > 1
	}
	ow, oh := fitLongEdge(cfg.Width, cfg.Height, opts.LongEdge)
	h.cost = decodeCost(data, format, cfg)
	if opts.LongEdge > 0 {
		h.cost += 4*int64(ow)*int64(oh) + int64(ow)*int64(oh)/2 // the RGBA to encode, and the JPEG
	}
	if h.cost > opts.MaxDecodeBytes {
		return header{}, fmt.Errorf("%w: %s %dx%d needs %d bytes to decode, over %d",
			ErrTooBig, format, cfg.Width, cfg.Height, h.cost, opts.MaxDecodeBytes)
	}
	return h, nil
}

// decode decodes every pixel of the picture h describes, so that truncated
// or corrupt data is caught here and never sent. A GIF's first frame alone
// is decoded: the others are never needed, and keeping them all is how a
// small GIF asks for gigabytes (readHeader checked that the file is whole).
func decode(data []byte, h header) (decoded, error) {
	d := decoded{mime: h.mime, width: h.width, height: h.height, animated: h.animated}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return decoded{}, fmt.Errorf("%w: %s: %v", ErrUndecodable, h.format, err)
	}
	d.img = img
	if h.format == "gif" {
		p, ok := img.(*image.Paletted)
		if !ok {
			return decoded{}, errors.New("gif decoder returned no paletted image")
		}
		d.img = onCanvas(p, h.width, h.height)
	}
	return d, nil
}

// onCanvas returns a GIF's first frame; a frame smaller than the logical
// screen is drawn on a canvas of the screen's size.
func onCanvas(f *image.Paletted, w, h int) image.Image {
	if f.Bounds() == image.Rect(0, 0, w, h) {
		return f
	}
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	fillWhite(canvas)
	drawOver(canvas, f)
	return canvas
}
