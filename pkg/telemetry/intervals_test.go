package telemetry

import "testing"

func TestUnionLen(t *testing.T) {
	tests := []struct {
		name string
		ivs  []interval
		want int64
	}{
		{name: "none", want: 0},
		{name: "one", ivs: []interval{{10, 40}}, want: 30},
		{name: "disjoint", ivs: []interval{{50, 60}, {10, 20}}, want: 20},
		{name: "overlap", ivs: []interval{{10, 40}, {20, 50}}, want: 40},
		{name: "nested", ivs: []interval{{10, 100}, {20, 30}, {40, 50}}, want: 90},
		{name: "touching", ivs: []interval{{10, 20}, {20, 30}}, want: 20},
		{name: "empty and reversed ignored", ivs: []interval{{10, 10}, {30, 20}, {0, 5}}, want: 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unionLen(tt.ivs); got != tt.want {
				t.Errorf("unionLen(%v) = %d; want %d", tt.ivs, got, tt.want)
			}
		})
	}
}

func TestClip(t *testing.T) {
	got := clip([]interval{{0, 15}, {12, 18}, {18, 30}, {25, 40}}, 10, 20)
	want := []interval{{10, 15}, {12, 18}, {18, 20}}
	if len(got) != len(want) {
		t.Fatalf("clip = %v; want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("clip[%d] = %v; want %v", i, got[i], want[i])
		}
	}
}

// FuzzUnionLen checks unionLen against counting covered unit cells.
func FuzzUnionLen(f *testing.F) {
	f.Add([]byte{10, 40, 20, 50})
	f.Add([]byte{0, 255, 3, 4, 200, 100})
	f.Fuzz(func(t *testing.T, data []byte) {
		var ivs []interval
		var covered [256]bool
		for i := 0; i+1 < len(data); i += 2 {
			iv := interval{int64(data[i]), int64(data[i+1])}
			ivs = append(ivs, iv)
			for x := iv.start; x < iv.end; x++ {
				covered[x] = true
			}
		}
		var want int64
		for _, c := range covered {
			if c {
				want++
			}
		}
		if got := unionLen(ivs); got != want {
			t.Errorf("unionLen(%v) = %d; want %d", ivs, got, want)
		}
	})
}
