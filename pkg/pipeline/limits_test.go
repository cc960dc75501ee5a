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
	cfg := testConfig(1, 100)
	cfg.SenderQueue = 2
	p := start(t, cfg, func(ctx context.Context, s *Slot, msg string) {
		if msg[0] == 'a' { // a slow sender: waits without its slot
			if err := s.WaitOutside(ctx, func() error { <-release; return nil }); err != nil {
				t.Error(err)
			}
		}
		done <- msg
	})
	offers := []struct {
		raw     string
		wantErr error
	}{
		{"a1", nil}, {"a2", nil}, {"a3", nil}, // one runs, two wait
		{"a4", ErrSender},                                  // a third would wait: dropped before the FIFO
		{"b1", nil},                                        // others are not held up
		{"-1", nil}, {"-2", nil}, {"-3", nil}, {"-4", nil}, // frames without a sender are not counted
	}
	for _, o := range offers {
		if err := push(p, o.raw); !errors.Is(err, o.wantErr) {
			t.Errorf("Push(%s) = %v; want %v", o.raw, err, o.wantErr)
		}
	}
	if got := <-done; got != "b1" {
		t.Errorf("first done = %s; want b1 (a's frames wait without a slot)", got)
	}
	for range 4 {
		if got := <-done; got[0] != '-' {
			t.Errorf("done = %s before release; want the frames without a sender", got)
		}
	}
	close(release)
	for range 3 {
		<-done
	}
	if err := push(p, "a5"); err != nil {
		t.Errorf("Push(a5) after a's frames finished = %v; want nil", err)
	}
	<-done
	if st := p.Stats(); st.DroppedSender != 1 || st.Dropped != 1 || st.Accepted != 9 {
		t.Errorf("stats = %+v; want 1 dropped by the sender queue, 9 accepted", st)
	}
}

func TestQueueBytesBound(t *testing.T) {
	release := make(chan struct{})
	done := make(chan struct{}, 4)
	cfg := testConfig(1, 100)
	cfg.QueueBytes = 10
	p := start(t, cfg, func(ctx context.Context, s *Slot, msg string) {
		<-release
		done <- struct{}{}
	})
	if err := push(p, "-12345"); err != nil {
		t.Fatal(err)
	}
	if err := push(p, "-12345"); !errors.Is(err, ErrBytes) {
		t.Errorf("12 bytes held of 10: Push = %v; want ErrBytes", err)
	}
	if err := push(p, "-123"); err != nil {
		t.Errorf("10 bytes held of 10: Push = %v; want nil", err)
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
