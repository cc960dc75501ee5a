package sim

// Freeze makes every websocket connection open now go silent without closing, as a half-open
// TCP connection whose far end has vanished: its writer sends no more frames and no more
// pings, and never closes the socket. Freeze returns once each writer has gone silent (a
// frame it is writing still goes out first). Frames offered to a frozen connection are lost:
// in lossless mode they wait in its queue until it ends, in lossy mode they miss it as a busy
// writer. Connections made later are normal, so a client that notices the silence (its read
// deadline) and redials gets a working socket again. Freeze returns how many connections are
// now frozen.
func (s *Sim) Freeze() int {
	s.mu.Lock()
	subs := make([]*subscriber, 0, len(s.subs))
	for sub := range s.subs {
		subs = append(subs, sub)
	}
	s.mu.Unlock()
	n := 0
	for _, sub := range subs {
		select {
		case sub.freeze <- struct{}{}:
			n++
		case <-sub.done:
		case <-s.done:
		}
	}
	return n
}

// frozen keeps a frozen connection's writer silent until the client goes away or the
// simulator closes. It takes later Freeze tokens too, so freezing twice does not block.
func (s *Sim) frozen(sub *subscriber) {
	sub.writing.Store(true) // lossy offers now miss it at once instead of waiting
	for {
		select {
		case <-sub.freeze:
		case <-sub.done:
			return
		case <-s.done:
			return
		}
	}
}
