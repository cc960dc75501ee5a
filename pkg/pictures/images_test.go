package pictures

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"testing"
)

// webp1x1 is a lossless 1×1 WebP; Go has no WebP encoder to make one.
const webp1x1 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

// photo draws a w x h gradient with per-pixel noise, so it compresses like a
// photograph rather than to nothing; alpha, when below 255, is applied to
// the left half.
func photo(seed uint64, w, h int, alpha uint8) *image.NRGBA {
	rnd := rand.New(rand.NewPCG(seed, 1))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			o := img.PixOffset(x, y)
			shade := x*96/w + y*96/h
			noise := rnd.Uint32() // one draw gives the three channels' noise
			img.Pix[o] = uint8(60 + shade + int(noise&0xff)%28)
			img.Pix[o+1] = uint8(40 + shade + int(noise>>8&0xff)%28)
			img.Pix[o+2] = uint8(90 + shade/2 + int(noise>>16&0xff)%28)
			img.Pix[o+3] = 255
			if x < w/2 {
				img.Pix[o+3] = alpha
			}
		}
	}
	return img
}

func jpegBytes(t testing.TB, img image.Image, q int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func pngBytes(t testing.TB, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// animatedGIF makes a GIF of frames noisy w x h frames.
func animatedGIF(t testing.TB, w, h, frames int) []byte {
	t.Helper()
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.RGBA{uint8(i), uint8(i / 2), uint8(255 - i), 255}
	}
	rnd := rand.New(rand.NewPCG(7, 7))
	g := &gif.GIF{}
	for range frames {
		f := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for i := range f.Pix {
			f.Pix[i] = uint8(rnd.IntN(256))
		}
		g.Image = append(g.Image, f)
		g.Delay = append(g.Delay, 10)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func webp(t testing.TB) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(webp1x1)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
