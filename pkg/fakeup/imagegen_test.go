package fakeup

import (
	"bytes"
	"image"
	"testing"
)

func TestEncodeImage(t *testing.T) {
	tests := []struct {
		ext          string
		w, h         int
		minKB, maxKB int
		wantFormat   string
	}{
		{"jpg", 1200, 900, 130, 230, "jpeg"},
		{"png", 640, 480, 40, 400, "png"},
		{"gif", 480, 360, 60, 400, "gif"},
	}
	for _, tt := range tests {
		t.Run(tt.ext, func(t *testing.T) {
			a := encodeImage(7, "cat/abc", tt.ext, tt.w, tt.h)
			b := encodeImage(7, "cat/abc", tt.ext, tt.w, tt.h)
			c := encodeImage(7, "cat/abd", tt.ext, tt.w, tt.h)
			if !bytes.Equal(a, b) || bytes.Equal(a, c) {
				t.Errorf("same key equal=%v, other key equal=%v; want true, false", bytes.Equal(a, b), bytes.Equal(a, c))
			}
			if kb := len(a) / 1024; kb < tt.minKB || kb > tt.maxKB {
				t.Errorf("%s %dx%d is %d KB; want %d..%d", tt.ext, tt.w, tt.h, kb, tt.minKB, tt.maxKB)
			}
			img, format, err := image.Decode(bytes.NewReader(a))
			if err != nil || format != tt.wantFormat || img.Bounds().Dx() != tt.w || img.Bounds().Dy() != tt.h {
				t.Errorf("decode: %v, %q; want %q %dx%d", err, format, tt.wantFormat, tt.w, tt.h)
			}
		})
	}
}

func TestFit(t *testing.T) {
	tests := []struct{ w, h, maxW, wantW, wantH int }{
		{1600, 1200, 1200, 1200, 900},
		{1600, 1200, 250, 250, 188},
		{1200, 1600, 1280, 1200, 1600},
		{1600, 1200, 0, 1600, 1200},
	}
	for _, tt := range tests {
		if w, h := fit(tt.w, tt.h, tt.maxW); w != tt.wantW || h != tt.wantH {
			t.Errorf("fit(%d, %d, %d) = %d, %d; want %d, %d", tt.w, tt.h, tt.maxW, w, h, tt.wantW, tt.wantH)
		}
	}
}

func TestImageCacheEvictsOldest(t *testing.T) {
	c := newImageCache(2)
	calls := 0
	gen := func() []byte { calls++; return []byte{byte(calls)} }
	for _, k := range []string{"a", "b", "a", "c", "a"} {
		c.get(k, gen)
	}
	if calls != 4 {
		t.Errorf("generated %d times; want 4 (a, b, c, then a again after eviction)", calls)
	}
}
