package pictures

import (
	"testing"

	"signal-bot/pkg/fakeup"
)

// BenchmarkShrinkHostile reports the bytes one Shrink of each hostile
// picture allocates (B/op), with the default options but the long edge;
// run the same file on an older commit to compare.
func BenchmarkShrinkHostile(b *testing.B) {
	inputs := []struct {
		name string
		data []byte
	}{
		{"GIF1000x1000x200frames", fakeup.GIFBomb(1000, 1000, 200)},
		{"PNG16_3000x2000", fakeup.PNG16(3000, 2000)},
		{"PNG16_6000x4000", fakeup.PNG16(6000, 4000)},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Shrink(in.data, testOptions())
			}
		})
	}
}
