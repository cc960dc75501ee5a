package pipeline

import "context"

// Slot is a task's share of the Limit. A task gives it up while it waits for
// something that needs no slot (another frame of the same sender), so that
// waiting never keeps other people's frames in the queue.
type Slot struct {
	p    *Pipeline
	held bool
}

// Wait gives the slot up, runs wait, and takes a slot again. It returns
// wait's error, or ctx's if no slot came back in time (the slot is then not held).
func (s *Slot) Wait(ctx context.Context, wait func() error) error {
	s.release()
	if err := wait(); err != nil {
		return err
	}
	select {
	case s.p.slots <- struct{}{}:
		s.held = true
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Held reports whether the task holds a slot now.
func (s *Slot) Held() bool { return s.held }

func (s *Slot) release() {
	if s.held {
		s.held = false
		<-s.p.slots
	}
}

// Turn waits until every earlier frame of f's sender has finished, giving
// the slot up meanwhile. The turn ends when the task ends.
func (s *Slot) Turn(ctx context.Context, f *Frame) error {
	ready := s.p.turns.ready(f.Key, f.Seq)
	select {
	case <-ready:
		return nil
	default:
	}
	return s.Wait(ctx, func() error {
		select {
		case <-ready:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}
