package upstream

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"
)

func encoded(t *testing.T, format string) []byte {
	t.Helper()
	img := image.NewPaletted(image.Rect(0, 0, 3, 2), color.Palette{color.Black, color.White})
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "gif":
		err = gif.Encode(&b, img, nil)
	default:
		err = jpeg.Encode(&b, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestInspectImage(t *testing.T) {
	bomb := encoded(t, "gif")
	bomb[6], bomb[7], bomb[8], bomb[9] = 0xff, 0xff, 0xff, 0xff // logical screen 65535x65535
	tests := []struct {
		name     string
		data     []byte
		wantMIME string
		wantErr  error
	}{
		{"jpeg", encoded(t, "jpeg"), "image/jpeg", nil},
		{"png", encoded(t, "png"), "image/png", nil},
		{"gif", encoded(t, "gif"), "image/gif", nil},
		{"html", []byte("<!DOCTYPE html><html></html>"), "", ErrNotImage},
		{"empty", nil, "", ErrNotImage},
		{"truncated header", encoded(t, "png")[:20], "", ErrNotImage},
		{"decompression bomb", bomb, "", ErrNotImage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mime, w, h, err := inspectImage(tt.data)
			if !errors.Is(err, tt.wantErr) || mime != tt.wantMIME {
				t.Fatalf("inspectImage = %q, %v; want %q, %v", mime, err, tt.wantMIME, tt.wantErr)
			}
			if err == nil && (w != 3 || h != 2) {
				t.Errorf("size %dx%d; want 3x2", w, h)
			}
		})
	}
}
