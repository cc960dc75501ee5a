package telemetry

import (
	"testing"

	"go.opentelemetry.io/otel/trace"
)

func TestRecentRing(t *testing.T) {
	id := func(i int) trace.TraceID { return trace.TraceID{byte(i), byte(i >> 8), 1} }
	tests := []struct {
		name      string
		ids       []int // added in this order, each with Block.Command = its index in ids as a letter
		want      map[int]string
		forgotten []int
	}{
		{name: "not full", ids: []int{1, 2}, want: map[int]string{1: "a", 2: "b"}, forgotten: []int{3}},
		{name: "wrapped", ids: []int{1, 2, 3, 4, 5}, want: map[int]string{3: "c", 4: "d", 5: "e"}, forgotten: []int{1, 2}},
		{name: "an id again keeps its newer result", ids: []int{1, 2, 1, 3, 4}, want: map[int]string{1: "c", 3: "d", 4: "e"},
			forgotten: []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRecentRing(3)
			for i, n := range tt.ids {
				r.add(id(n), awaitResult{block: Block{Command: string(rune('a' + i))}})
			}
			for n, want := range tt.want {
				if res, ok := r.get(id(n)); !ok || res.block.Command != want {
					t.Errorf("get(%d) = %q, %v; want %q", n, res.block.Command, ok, want)
				}
			}
			for _, n := range tt.forgotten {
				if _, ok := r.get(id(n)); ok {
					t.Errorf("get(%d) found a result; want it forgotten", n)
				}
			}
		})
	}
}
