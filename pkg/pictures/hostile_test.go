package pictures

import (
	"context"
	"errors"
	"image"
	"runtime"
	"testing"

	"signal-bot/pkg/fakeup"
)

// allocated returns the bytes f allocates, by the runtime's own count.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// headerSlack is what reading a header and failing may allocate: buffered
// readers, decoder state and error strings, never pixels.
const headerSlack = 256 << 10

func TestHostilePicturesStayWithinTheirCost(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		wantErr error // nil: a picture comes out
	}{
		{name: "50,000 x 50,000 PNG header", data: fakeup.PNGHeader(50000, 50000), wantErr: ErrTooBig},
		{name: "16-bit PNG 6000 x 4000 (192 MB decoded)", data: fakeup.PNG16(6000, 4000), wantErr: ErrTooBig},
		{name: "16-bit PNG 1000 x 800", data: fakeup.PNG16(1000, 800)},
		{name: "GIF of 200 full frames of 1000 x 1000", data: fakeup.GIFBomb(1000, 1000, 200)},
		{name: "GIF 4000 x 6000 cut short", data: fakeup.GIFBomb(4000, 6000, 2)[:20000], wantErr: ErrUndecodable},
		{name: "truncated JPEG", data: fakeup.TruncatedJPEG(800, 600), wantErr: ErrUndecodable},
	}
	opts := testOptions().withConstants()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cost int64
			if h, err := readHeader(tt.data, opts); err == nil {
				cost = h.cost
			}
			var err error
			got := allocated(func() { _, err = Shrink(tt.data, opts) })
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Shrink error = %v; want %v", err, tt.wantErr)
			}
			if limit := uint64(cost) + headerSlack; got > limit {
				t.Errorf("Shrink allocated %d bytes; want at most the header's cost %d and %d of slack", got, cost, headerSlack)
			}
			if cost > opts.MaxDecodeBytes {
				t.Errorf("cost %d is over the cap %d, yet the header was accepted", cost, opts.MaxDecodeBytes)
			}
		})
	}
}

func TestAnimatedGIFDecodesOneFrame(t *testing.T) {
	data := fakeup.GIFBomb(600, 400, 50)
	r, err := Shrink(data, testOptions(func(o *Options) { o.GIFMaxBytes = 1 << 20 }))
	if err != nil {
		t.Fatal(err)
	}
	if r.Action != GIFPassed {
		t.Errorf("action = %v; want %v (a whole animated GIF under GIFMaxBytes passes)", r.Action, GIFPassed)
	}
	r, err = Shrink(data, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	if r.Action != GIFFirstFrame || r.MIME != "image/jpeg" {
		t.Errorf("action, mime = %v, %s; want %v, image/jpeg", r.Action, r.MIME, GIFFirstFrame)
	}
}

func TestDecodeCost(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		cfg  image.Config
		fmt  string
		want int64
	}{
		{name: "8-bit PNG is 4 bytes a pixel", data: fakeup.PNGHeader(1, 1), fmt: "png", cfg: image.Config{Width: 100, Height: 10},
			want: 100*10*4 + 2*(100*4+1)},
		{name: "16-bit PNG is 8 bytes a pixel", data: fakeup.PNG16(1, 1), fmt: "png", cfg: image.Config{Width: 100, Height: 10},
			want: 100*10*8 + 2*(100*8+1)},
		{name: "GIF: the frame and a canvas", fmt: "gif", cfg: image.Config{Width: 100, Height: 10}, want: 5 * 1000},
		{name: "baseline 4:2:0 JPEG", data: jpegHeader(0xc0, false, 0x22, 0x11, 0x11), fmt: "jpeg",
			cfg: image.Config{Width: 16, Height: 16}, want: 256 + 64 + 64},
		{name: "progressive 4:4:4 JPEG adds its coefficients", data: jpegHeader(0xc2, false, 0x11, 0x11, 0x11), fmt: "jpeg",
			cfg: image.Config{Width: 16, Height: 16}, want: 3 * 256 * 5},
		{name: "Adobe CMYK JPEG: four planes and the CMYK copy", data: jpegHeader(0xc0, true, 0x11, 0x11, 0x11, 0x11), fmt: "jpeg",
			cfg: image.Config{Width: 16, Height: 16}, want: 4*256 + 4*256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decodeCost(tt.data, tt.fmt, tt.cfg); got != tt.want {
				t.Errorf("decodeCost = %d; want %d", got, tt.want)
			}
		})
	}
}

// jpegHeader is the start of a JPEG up to its frame header: SOI, an APP14
// Adobe segment when adobe, and a SOFn of the given marker whose components
// have the given sampling bytes.
func jpegHeader(sof byte, adobe bool, sampling ...byte) []byte {
	b := []byte{0xff, 0xd8}
	if adobe {
		b = append(b, 0xff, 0xee, 0, 14, 'A', 'd', 'o', 'b', 'e', 0, 100, 0, 0, 0, 0, 2)
	}
	seg := []byte{8, 0, 16, 0, 16, byte(len(sampling))}
	for i, s := range sampling {
		seg = append(seg, byte(i+1), s, 0)
	}
	b = append(b, 0xff, sof, 0, byte(2+len(seg)))
	return append(b, seg...)
}

func TestBudget(t *testing.T) {
	ctx := context.Background()
	b := NewBudget(100)
	if err := b.Acquire(ctx, 101); !errors.Is(err, ErrTooBig) {
		t.Errorf("Acquire(101) of 100 = %v; want ErrTooBig at once", err)
	}
	if err := b.Acquire(ctx, 60); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.Acquire(cctx, 50); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire(50) with 40 free and a cancelled ctx = %v; want context.Canceled", err)
	}
	got := make(chan error, 1)
	go func() { got <- b.Acquire(ctx, 50) }()
	for b.waiting() == 0 {
		runtime.Gosched()
	}
	if err := b.Acquire(cctx, 10); err == nil {
		t.Error("a small Acquire jumped the queue past a waiting large one")
	}
	b.Release(60)
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if got, want := b.Used(), int64(50); got != want {
		t.Errorf("Used = %d; want %d", got, want)
	}
	b.Release(50)
}
