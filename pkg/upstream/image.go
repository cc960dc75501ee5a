package upstream

import (
	"bytes"
	"fmt"
	"image"
	"net/http"

	// Register the decoders image.DecodeConfig needs.
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"
)

// maxPixels rejects images whose header claims absurd dimensions: nothing
// downstream should ever try to handle a decompression bomb.
const maxPixels = 100_000_000

// Image is one downloaded, validated picture.
type Image struct {
	// Data is the complete image file.
	Data []byte
	// MIME is sniffed from Data: image/jpeg, image/png, image/gif or image/webp.
	MIME string
	// Filename is derived from the download URL, sanitized, with an
	// extension that matches MIME.
	Filename string
	// Width and Height come from the decoded image header.
	Width, Height int
	// SourceURL is the URL the bytes were downloaded from.
	SourceURL string
}

// formatMIME maps an image.DecodeConfig format name to the MIME type that
// http.DetectContentType reports for the same bytes.
var formatMIME = map[string]string{
	"jpeg": "image/jpeg",
	"png":  "image/png",
	"gif":  "image/gif",
	"webp": "image/webp",
}

// inspectImage sniffs the MIME type of data and decodes its header. It fails
// with ErrNotImage unless data is a JPEG, PNG, GIF or WebP whose header
// decodes to sane dimensions and agrees with the sniffed type. Truncation
// after the header is caught by HTTP framing (Content-Length or the chunked
// terminator), so the full pixel data is not decoded here: that would cost
// the bot tens of milliseconds of CPU per picture.
func inspectImage(data []byte) (mime string, width, height int, err error) {
	mime = http.DetectContentType(data)
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", 0, 0, fmt.Errorf("%w: sniffed %s: %v", ErrNotImage, mime, err)
	}
	if formatMIME[format] != mime {
		return "", 0, 0, fmt.Errorf("%w: sniffed %s but header decodes as %s", ErrNotImage, mime, format)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > maxPixels {
		return "", 0, 0, fmt.Errorf("%w: implausible size %dx%d", ErrNotImage, cfg.Width, cfg.Height)
	}
	return mime, cfg.Width, cfg.Height, nil
}

// newImage validates data downloaded from srcURL and describes it. A failure
// is an *Error carrying op.
func newImage(op, srcURL string, data []byte) (Image, error) {
	mime, w, h, err := inspectImage(data)
	if err != nil {
		return Image{}, &Error{Op: op, URL: redactURL(srcURL), Status: http.StatusOK, Err: err}
	}
	return Image{
		Data:      data,
		MIME:      mime,
		Filename:  filenameFor(srcURL, mime),
		Width:     w,
		Height:    h,
		SourceURL: srcURL,
	}, nil
}
