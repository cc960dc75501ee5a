package fakeup

import (
	"bytes"
	"image"
	"image/gif"
	"image/png"
	"testing"
)

func TestHostilePictures(t *testing.T) {
	tests := []struct {
		name          string
		data          []byte
		wantFormat    string
		wantW, wantH  int
		wantDecodeErr bool
	}{
		{name: "gif bomb", data: GIFBomb(400, 600, 5), wantFormat: "gif", wantW: 400, wantH: 600},
		{name: "png header", data: PNGHeader(50000, 50000), wantFormat: "png", wantW: 50000, wantH: 50000, wantDecodeErr: true},
		{name: "png16", data: PNG16(300, 200), wantFormat: "png", wantW: 300, wantH: 200},
		{name: "png16 over a megabyte of rows", data: PNG16(1000, 300), wantFormat: "png", wantW: 1000, wantH: 300},
		{name: "truncated jpeg", data: TruncatedJPEG(320, 240), wantFormat: "jpeg", wantW: 320, wantH: 240, wantDecodeErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, format, err := image.DecodeConfig(bytes.NewReader(tt.data))
			if err != nil || format != tt.wantFormat || cfg.Width != tt.wantW || cfg.Height != tt.wantH {
				t.Fatalf("DecodeConfig = %s %dx%d, %v; want %s %dx%d", format, cfg.Width, cfg.Height, err, tt.wantFormat, tt.wantW, tt.wantH)
			}
			if tt.wantW*tt.wantH > 1<<20 {
				return // never decode what the header bomb claims
			}
			_, _, err = image.Decode(bytes.NewReader(tt.data))
			if got := err != nil; got != tt.wantDecodeErr {
				t.Errorf("Decode error = %v; want an error: %v", err, tt.wantDecodeErr)
			}
		})
	}
}

func TestGIFBombKeepsItsFrames(t *testing.T) {
	g, err := gif.DecodeAll(bytes.NewReader(GIFBomb(64, 48, 7)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(g.Image), 7; got != want {
		t.Errorf("frames = %d; want %d", got, want)
	}
}

func TestPNG16IsSixteenBit(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(PNG16(1200, 1000)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := img.(*image.NRGBA64); !ok {
		t.Errorf("decoded as %T; want *image.NRGBA64", img)
	}
}
