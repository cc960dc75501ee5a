package fakeup

import (
	"bytes"
	"hash/fnv"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
)

// The noise parameters were tuned so a 1200x900 JPEG weighs about 160 KB,
// like a real cat photo, instead of compressing to nothing.
const (
	noiseAmp    = 28
	jpegQuality = 82
	pngBlock    = 4 // PNG noise in 4x4 blocks: ~280 KB at 1280x960
	gifMaxWidth = 480
)

// mimeOf maps a file extension to its Content-Type.
var mimeOf = map[string]string{"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif"}

// encodeImage renders the picture named key at w x h and encodes it as ext
// (jpg, png or gif). The same seed, key and size always give the same bytes.
func encodeImage(seed uint64, key, ext string, w, h int) []byte {
	rnd := rand.New(rand.NewPCG(seed, keyHash(key)))
	var buf bytes.Buffer
	var err error
	switch ext {
	case "png":
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, render(rnd, w, h, pngBlock))
	case "gif":
		err = gif.Encode(&buf, renderPaletted(rnd, w, h), &gif.Options{NumColors: 256})
	default:
		err = jpeg.Encode(&buf, render(rnd, w, h, 1), &jpeg.Options{Quality: jpegQuality})
	}
	if err != nil {
		// Encoding into memory cannot fail for these in-memory images.
		panic("fakeup: encode " + ext + ": " + err.Error())
	}
	return buf.Bytes()
}

func keyHash(key string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	return h.Sum64()
}

// render draws a gradient background with a darker cat head (an ellipse with
// two ears) and per-pixel noise shared by block x block squares.
func render(rnd *rand.Rand, w, h, block int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := [3]int{80 + rnd.IntN(150), 80 + rnd.IntN(150), 80 + rnd.IntN(150)}
	fur := [3]int{bg[0] / 3, bg[1] / 3, bg[2] / 3}
	noise := make([]uint32, (w+block-1)/block)
	for y := range h {
		if y%block == 0 {
			for i := range noise {
				noise[i] = rnd.Uint32()
			}
		}
		row := img.Pix[y*img.Stride:]
		for x := range w {
			c, shade := bg, (x*64/w+y*64/h)-32
			if inCat(x, y, w, h) {
				c = fur
			}
			n := noise[x/block]
			o := 4 * x
			row[o] = clamp(c[0] + shade + int(n&0xff)%noiseAmp - noiseAmp/2)
			row[o+1] = clamp(c[1] + shade + int(n>>8&0xff)%noiseAmp - noiseAmp/2)
			row[o+2] = clamp(c[2] + shade + int(n>>16&0xff)%noiseAmp - noiseAmp/2)
			row[o+3] = 0xff
		}
	}
	return img
}

// renderPaletted draws the same scene with a 256-step brightness ramp, so GIF
// encoding needs no quantisation.
func renderPaletted(rnd *rand.Rand, w, h int) *image.Paletted {
	tint := [3]int{100 + rnd.IntN(156), 100 + rnd.IntN(156), 100 + rnd.IntN(156)}
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.RGBA{uint8(tint[0] * i / 255), uint8(tint[1] * i / 255), uint8(tint[2] * i / 255), 0xff}
	}
	img := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := range h {
		row := img.Pix[y*img.Stride:]
		for x := range w {
			v := 180 + (x*64/w + y*64/h) - 32
			if inCat(x, y, w, h) {
				v = 60
			}
			row[x] = clamp(v + rnd.IntN(noiseAmp) - noiseAmp/2)
		}
	}
	return img
}

// inCat reports whether (x, y) falls in the head or ears of the cat drawn in
// the middle of a w x h picture.
func inCat(x, y, w, h int) bool {
	cx, cy := w/2, h*11/20
	rx, ry := max(w/5, 1), max(h/5, 1)
	dx, dy := x-cx, y-cy
	if dx*dx*ry*ry+dy*dy*rx*rx <= rx*rx*ry*ry {
		return true
	}
	// Ears: triangles standing on the top of the head.
	top, earH := cy-ry*7/10, ry*7/10
	if y > top || y < top-earH {
		return false
	}
	half := (y - (top - earH)) * rx / 3 / max(earH, 1)
	for _, ex := range [2]int{cx - rx*6/10, cx + rx*6/10} {
		if x >= ex-half && x <= ex+half {
			return true
		}
	}
	return false
}

func clamp(v int) uint8 {
	return uint8(min(max(v, 0), 255))
}

// fit scales w x h down to at most maxW wide, keeping the aspect ratio.
func fit(w, h, maxW int) (int, int) {
	if maxW <= 0 || w <= maxW {
		return w, h
	}
	return maxW, max(1, (h*maxW+w/2)/w)
}
