package pipeline

import (
	"context"
	"testing"
	"time"
)

// BenchmarkHandOff pushes one item at a time and waits until its handler
// has run: the hand-off from Push to the handler, closed loop, as one
// /_selftest request after another.
func BenchmarkHandOff(b *testing.B) {
	for _, key := range []string{"", "a"} {
		name := "key=" + key
		if key == "" {
			name = "no key"
		}
		b.Run(name, func(b *testing.B) {
			p := New[chan struct{}](Config{Limit: 8, QueueDepth: 100, FrameTimeout: time.Minute, SenderQueue: 16, QueueBytes: 1 << 20})
			go p.Run(func(ctx context.Context, s *Slot, done chan struct{}) {
				if s.AwaitTurn(ctx) == nil {
					done <- struct{}{}
				}
			})
			done := make(chan struct{})
			b.ReportAllocs()
			for b.Loop() {
				if err := p.Push(key, 100, done); err != nil {
					b.Fatal(err)
				}
				<-done
			}
			p.Close()
			p.Wait(context.Background())
		})
	}
}
