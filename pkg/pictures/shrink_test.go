package pictures

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"testing"
)

func TestShrink(t *testing.T) {
	// A long edge of 640 instead of the default 1280 keeps the pictures
	// small under -race; BenchmarkShrink holds the 1600 x 1200 figures.
	opts := testOptions(func(o *Options) { o.LongEdge, o.KeepBytes, o.GIFMaxBytes = 640, 64<<10, 256<<10 })
	bigJPEG := jpegBytes(t, photo(1, 800, 600, 255), 92)
	bigPNG := pngBytes(t, photo(2, 800, 600, 255))
	smallJPEG := jpegBytes(t, photo(3, 320, 240, 255), 82)
	poorJPEG := jpegBytes(t, photo(4, 600, 450, 255), 30)
	alphaPNG := pngBytes(t, photo(5, 400, 300, 0))
	smallGIF := animatedGIF(t, 64, 48, 3)
	bigGIF := animatedGIF(t, 640, 480, 4)
	tests := []struct {
		name        string
		in          []byte
		opts        Options
		wantAction  Action
		wantMIME    string
		wantW       int
		wantH       int
		wantSmaller bool // output strictly smaller than input
	}{
		{"large JPEG is scaled", bigJPEG, opts, Scaled, "image/jpeg", 640, 480, true},
		{"large PNG is scaled to JPEG", bigPNG, opts, Scaled, "image/jpeg", 640, 480, true},
		{"small JPEG is kept", smallJPEG, opts, Kept, "image/jpeg", 320, 240, false},
		{"JPEG smaller than its re-encode is kept", poorJPEG, testOptions(func(o *Options) { o.Quality = 95 }), Kept, "image/jpeg", 600, 450, false},
		{"transparent PNG becomes JPEG", alphaPNG, testOptions(), Reencoded, "image/jpeg", 400, 300, true},
		{"small animated GIF passes", smallGIF, opts, GIFPassed, "image/gif", 64, 48, false},
		{"large animated GIF sends its first frame", bigGIF, opts, GIFFirstFrame, "image/jpeg", 640, 480, true},
		{"WebP within limits is kept", webp(t), opts, Kept, "image/webp", 1, 1, false},
		{"shrinking off verifies only", bigPNG, testOptions(shrinkOff), Verified, "image/png", 800, 600, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Shrink(tt.in, tt.opts)
			if err != nil {
				t.Fatalf("Shrink: %v", err)
			}
			if got.Action != tt.wantAction || got.MIME != tt.wantMIME || got.Width != tt.wantW || got.Height != tt.wantH {
				t.Errorf("Shrink = %v %s %dx%d; want %v %s %dx%d", got.Action, got.MIME, got.Width, got.Height,
					tt.wantAction, tt.wantMIME, tt.wantW, tt.wantH)
			}
			if smaller := len(got.Data) < len(tt.in); smaller != tt.wantSmaller {
				t.Errorf("bytes %d → %d; want smaller %v", len(tt.in), len(got.Data), tt.wantSmaller)
			}
			if !tt.wantSmaller && !bytes.Equal(got.Data, tt.in) {
				t.Errorf("data changed; want the input as it came")
			}
			cfg, _, err := image.DecodeConfig(bytes.NewReader(got.Data))
			if err != nil || cfg.Width != got.Width || cfg.Height != got.Height {
				t.Errorf("output decodes as %dx%d (%v); want %dx%d", cfg.Width, cfg.Height, err, got.Width, got.Height)
			}
		})
	}
}

// Transparent pixels become white, not black: JPEG has no alpha.
func TestShrinkFlattensOnWhite(t *testing.T) {
	got, err := Shrink(pngBytes(t, photo(5, 400, 300, 0)), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(got.Data))
	if err != nil {
		t.Fatal(err)
	}
	r, g, b, _ := img.At(10, 10).RGBA()
	if r>>8 < 240 || g>>8 < 240 || b>>8 < 240 {
		t.Errorf("transparent pixel = %d,%d,%d; want white", r>>8, g>>8, b>>8)
	}
}

func TestShrinkRejects(t *testing.T) {
	full := jpegBytes(t, photo(6, 640, 480, 255), 82)
	tests := []struct {
		name string
		in   []byte
		opts Options
	}{
		{"empty", nil, testOptions()},
		{"HTML", []byte("<!DOCTYPE html><html></html>"), testOptions()},
		{"truncated JPEG", full[:len(full)/2], testOptions()},
		{"truncated JPEG, shrinking off", full[:len(full)/2], testOptions(shrinkOff)},
		{"truncated PNG", pngBytes(t, photo(7, 64, 64, 255))[:300], testOptions()},
		{"over MaxPixels", full, testOptions(func(o *Options) { o.MaxPixels = 640*480 - 1 })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Shrink(tt.in, tt.opts)
			if !errors.Is(err, ErrUndecodable) {
				t.Errorf("Shrink error = %v; want ErrUndecodable", err)
			}
		})
	}
}

func TestFitLongEdge(t *testing.T) {
	tests := []struct{ w, h, limit, wantW, wantH int }{
		{1600, 1200, 1280, 1280, 960},
		{1200, 1600, 1280, 960, 1280},
		{1200, 900, 1280, 1200, 900},
		{5000, 1, 1280, 1280, 1},
		{1600, 1200, 0, 1600, 1200},
	}
	for _, tt := range tests {
		if w, h := fitLongEdge(tt.w, tt.h, tt.limit); w != tt.wantW || h != tt.wantH {
			t.Errorf("fitLongEdge(%d, %d, %d) = %d, %d; want %d, %d", tt.w, tt.h, tt.limit, w, h, tt.wantW, tt.wantH)
		}
	}
}
