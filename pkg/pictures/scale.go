package pictures

import (
	"image"
	"image/color"
	"image/jpeg"
	"io"

	"golang.org/x/image/draw"
)

// longEdge is the longer side of a w x h picture.
func longEdge(w, h int) int { return max(w, h) }

// fitLongEdge scales w x h down so its long edge is at most limit, keeping
// the aspect ratio; a picture already within limit keeps its size.
func fitLongEdge(w, h, limit int) (int, int) {
	long := longEdge(w, h)
	if limit <= 0 || long <= limit {
		return w, h
	}
	sw := max(1, (w*limit+long/2)/long)
	sh := max(1, (h*limit+long/2)/long)
	return sw, sh
}

// opaque reports whether img has no transparent pixel, asking the image when
// it can tell and assuming transparency when it cannot.
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// scale returns img scaled to w x h, flattened on white where it is
// transparent (JPEG has no alpha). A picture of the right size that the JPEG
// encoder takes directly (YCbCr, Gray, opaque RGBA) is returned as it is.
func scale(img image.Image, w, h int, s draw.Scaler) image.Image {
	b := img.Bounds()
	isOpaque := opaque(img)
	if b.Dx() == w && b.Dy() == h && isOpaque {
		switch img.(type) {
		case *image.YCbCr, *image.Gray, *image.RGBA:
			return img
		}
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	op := draw.Src
	if !isOpaque {
		fillWhite(dst)
		op = draw.Over
	}
	if b.Dx() == w && b.Dy() == h {
		draw.Draw(dst, dst.Bounds(), img, b.Min, op)
		return dst
	}
	s.Scale(dst, dst.Bounds(), img, b, op, nil)
	return dst
}

// fillWhite paints every pixel of dst opaque white.
func fillWhite(dst *image.RGBA) {
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
}

// drawOver composites src over dst at src's own position.
func drawOver(dst *image.RGBA, src image.Image) {
	draw.Draw(dst, src.Bounds(), src, src.Bounds().Min, draw.Over)
}

// encodeJPEG writes img as a baseline JPEG of the given quality.
func encodeJPEG(w io.Writer, img image.Image, quality int) error {
	return jpeg.Encode(w, img, &jpeg.Options{Quality: quality})
}
