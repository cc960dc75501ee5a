package pictures

import (
	"bytes"
	"errors"
	"image"
	"runtime"
	"testing"

	"signal-bot/pkg/fakeup"
)

// fuzzOpts keeps the fuzzed decodes small: a header that promises more than
// 4 MiB is refused, and FuzzDecode checks that nothing allocates past what
// the header promised.
var fuzzOpts = Options{LongEdge: 64, Quality: 50, GIFMaxBytes: 1 << 10, MaxDecodeBytes: 4 << 20}

// FuzzDecode feeds arbitrary bytes to the decode path: the header checks,
// the decode and the re-encode. It must never panic, must refuse what the
// header check refuses, must return a picture that decodes, and must not
// allocate more than the header's cost (plus the slack of failing).
func FuzzDecode(f *testing.F) {
	small := photo(3, 24, 16, 200)
	f.Add(jpegBytes(f, small, 80))
	f.Add(pngBytes(f, small))
	f.Add(pngBytes(f, image.NewGray16(image.Rect(0, 0, 5, 3))))
	f.Add(animatedGIF(f, 12, 8, 3))
	f.Add(webp(f))
	f.Add(fakeup.PNG16(3, 2))
	f.Add(fakeup.PNGHeader(5000, 5000))
	f.Add(fakeup.GIFBomb(16, 16, 4))
	f.Add(fakeup.TruncatedJPEG(32, 24))
	f.Add(jpegHeader(0xc2, true, 0x11, 0x11, 0x11, 0x11))
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := fuzzOpts.withConstants()
		h, herr := readHeader(data, opts)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := Shrink(data, fuzzOpts)
		runtime.ReadMemStats(&after)
		if herr != nil {
			if err == nil {
				t.Fatalf("Shrink passed a picture its header check refused: %v", herr)
			}
			h.cost = 0
		}
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(h.cost)+headerSlack; got > limit {
			t.Fatalf("Shrink allocated %d bytes; the header promised %d (+%d slack)", got, h.cost, headerSlack)
		}
		if err != nil {
			if !errors.Is(err, ErrUndecodable) {
				t.Fatalf("Shrink error %v is no ErrUndecodable", err)
			}
			return
		}
		if _, _, err := image.DecodeConfig(bytes.NewReader(r.Data)); err != nil {
			t.Fatalf("Shrink returned %s (%v) that does not decode: %v", r.MIME, r.Action, err)
		}
	})
}
