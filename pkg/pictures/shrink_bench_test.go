package pictures

import (
	"testing"

	"golang.org/x/image/draw"
)

// BenchmarkShrink measures the CPU a shrink costs, which lands in own_ms on
// a pool miss: a 1600x1200 JPEG and PNG scaled to 1280 with each scaler, and
// a 1200x900 JPEG (The Cat API's size=med) that only needs a re-encode.
func BenchmarkShrink(b *testing.B) {
	inputs := []struct {
		name string
		data []byte
	}{
		{"JPEG1600x1200", jpegBytes(b, photo(1, 1600, 1200, 255), 92)},
		{"PNG1600x1200", pngBytes(b, photo(2, 1600, 1200, 255))},
		{"JPEG1200x900", jpegBytes(b, photo(3, 1200, 900, 255), 82)},
	}
	scalers := []struct {
		name string
		s    draw.Scaler
	}{
		{"ApproxBiLinear", draw.ApproxBiLinear},
		{"BiLinear", draw.BiLinear},
		{"CatmullRom", draw.CatmullRom},
	}
	for _, in := range inputs {
		for _, sc := range scalers {
			b.Run(in.name+"/"+sc.name, func(b *testing.B) {
				opts := testOptions(func(o *Options) { o.Scaler = sc.s })
				b.ReportAllocs()
				b.SetBytes(int64(len(in.data)))
				var out int
				for b.Loop() {
					r, err := Shrink(in.data, opts)
					if err != nil {
						b.Fatal(err)
					}
					out = len(r.Data)
				}
				b.ReportMetric(float64(out), "bytes_out")
			})
		}
		b.Run(in.name+"/verify-only", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Shrink(in.data, testOptions(shrinkOff)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
