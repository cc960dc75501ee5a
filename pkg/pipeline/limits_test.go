package pipeline

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSenderQueueDropsAtTheDoor(t *testing.T) {
	release := make(chan struct{})
	done := make(chan string, 16)
	p := start(t, Config{Limit: 1, QueueDepth: 100, SenderQueue: 2, Decode: func(raw []byte) (string, any) { return string(raw[:1]), nil }},
		func(ctx context.Context, f *Frame, s *Slot) {
			if err := s.Turn(ctx, f); err != nil {
				t.Error(err)
				return
			}
			if f.Key == "a" { // a slow sender: waits without its slot
				if err := s.Wait(ctx, func() error { <-release; return nil }); err != nil {
					t.Error(err)
				}
			}
			done <- string(f.Raw)
		})
	offers := []struct {
		raw     string
		wantErr error
	}{
		{"a1", nil}, {"a2", nil}, {"a3", nil}, // one runs, two wait
		{"a4", ErrSender}, // a third would wait: dropped before the FIFO
		{"b1", nil},       // others are not held up
	}
	for _, o := range offers {
		if _, err := p.Offer([]byte(o.raw), time.Now(), false); !errors.Is(err, o.wantErr) {
			t.Errorf("Offer(%s) = %v; want %v", o.raw, err, o.wantErr)
		}
	}
	if got := <-done; got != "b1" {
		t.Errorf("first done = %s; want b1 (a's frames wait without a slot)", got)
	}
	close(release)
	for range 3 {
		<-done
	}
	if _, err := p.Offer([]byte("a5"), time.Now(), false); err != nil {
		t.Errorf("Offer(a5) after a's frames finished = %v; want nil", err)
	}
	<-done
	if st := p.Stats(); st.DroppedSender != 1 || st.Dropped != 1 || st.Accepted != 5 {
		t.Errorf("stats = %+v; want 1 dropped by the sender queue, 5 accepted", st)
	}
}

func TestQueueBytesBound(t *testing.T) {
	release := make(chan struct{})
	done := make(chan struct{}, 4)
	p := start(t, Config{Limit: 1, QueueDepth: 100, QueueBytes: 10}, func(ctx context.Context, f *Frame, s *Slot) {
		<-release
		done <- struct{}{}
	})
	if _, err := p.Offer(make([]byte, 6), time.Now(), false); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Offer(make([]byte, 6), time.Now(), false); !errors.Is(err, ErrBytes) {
		t.Errorf("12 bytes held of 10: Offer = %v; want ErrBytes", err)
	}
	if _, err := p.Offer(make([]byte, 4), time.Now(), false); err != nil {
		t.Errorf("10 bytes held of 10: Offer = %v; want nil", err)
	}
	close(release)
	<-done
	<-done
	for range 1000 {
		if p.Stats().HeldBytes == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if st := p.Stats(); st.HeldBytes != 0 || st.DroppedBytes != 1 {
		t.Errorf("stats = %+v; want 0 bytes held once done, 1 dropped by bytes", st)
	}
}
