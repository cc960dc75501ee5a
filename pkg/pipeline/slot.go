package pipeline

import "context"

// slot is a task's share of the Limit. A task gives it up while it waits for
// something that needs no slot (its sender's turn, the outbound budget), so
// that waiting never keeps other people's frames in the queue. Only the
// task's own goroutine uses it.
type slot struct {
	slots chan struct{}
	held  bool
}

// slotKey is the context key under which Handle's ctx carries its task's slot.
type slotKey struct{}

// WaitOutside runs wait without a slot: called from a Handle (in the frame's
// task, on its goroutine), it gives the task's slot up, runs wait and takes a
// slot again, so that other frames run meanwhile. It returns wait's error, or
// ctx's if no slot came back in time. Outside a pipeline task it just runs
// wait.
func WaitOutside(ctx context.Context, wait func() error) error {
	s, ok := ctx.Value(slotKey{}).(*slot)
	if !ok {
		return wait()
	}
	return s.wait(ctx, wait)
}

// wait gives the slot up, runs wait, and takes a slot again. It returns
// wait's error, or ctx's if no slot came back in time (the slot is then not
// held).
func (s *slot) wait(ctx context.Context, wait func() error) error {
	s.release()
	if err := wait(); err != nil {
		return err
	}
	select {
	case s.slots <- struct{}{}:
		s.held = true
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *slot) release() {
	if s.held {
		s.held = false
		<-s.slots
	}
}
