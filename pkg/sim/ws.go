package sim

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

const (
	// readLimit is the real server's limit on a client frame; a bigger one closes the socket.
	readLimit = 512
	// writeWait bounds one control-frame write.
	writeWait = 10 * time.Second
	// queueDepth is the per-client queue used in lossless mode before an offer has to wait.
	queueDepth = 1024
)

// subscriber is one websocket client of GET /v1/receive/{number}.
type subscriber struct {
	conn   *websocket.Conn // set under Sim.mu once the handshake is done; nil before
	number string
	// frames is unbuffered, like the real server's per-client channel: a lossy offer succeeds
	// only while the writer goroutine waits in its select, so frames offered while it writes
	// the previous one are dropped.
	frames chan []byte
	// queue takes frames in lossless mode.
	queue chan []byte
	// writing is true while the writer writes a frame taken from frames or queue.
	writing atomic.Bool
	freeze  chan struct{} // the writer takes a token here and goes silent for good (see Freeze)
	done    chan struct{}
	once    sync.Once
}

// handleReceive upgrades GET /v1/receive/{number} to a websocket and serves it until the
// client goes away. A plain GET gets the real server's 400: gorilla writes "Bad Request\n" as
// text/plain, then the handler appends its JSON error to the same body.
func (s *Sim) handleReceive(w http.ResponseWriter, r *http.Request) {
	number, _ := pathNumber(r)
	if !s.track() {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	defer s.wg.Done()
	sub := &subscriber{
		number: number,
		frames: make(chan []byte), queue: make(chan []byte, queueDepth), done: make(chan struct{}),
		freeze: make(chan struct{}),
	}
	// Registered before the handshake is answered: once the client has its
	// 101, a frame offered waits for the writer instead of finding nobody.
	// (The real server registers a moment after the 101 and loses a frame
	// offered in between by scheduling alone; see offerOne.)
	s.addSub(sub)
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		s.dropSub(sub)
		b, _ := json.Marshal(errorBody{Error: err.Error()})
		_, _ = w.Write(b)
		return
	}
	s.mu.Lock()
	sub.conn = conn
	s.mu.Unlock()
	select {
	case <-sub.done: // dropped (Disconnect, Close) during the handshake
		conn.Close()
		return
	default:
	}
	s.wg.Add(1)
	go s.writeLoop(sub)
	s.readLoop(sub)
}

// readLoop reads and ignores client frames until any read error, like the real wsPong: no
// read deadline, pongs only accepted, a frame over 512 bytes ends the connection.
func (s *Sim) readLoop(sub *subscriber) {
	defer s.dropSub(sub)
	sub.conn.SetReadLimit(readLimit)
	for {
		if _, _, err := sub.conn.ReadMessage(); err != nil {
			s.log.Debug("websocket client gone", "number", sub.number, "err", err)
			return
		}
	}
}

// writeLoop is the per-client writer: it writes frames and pings until the connection ends.
func (s *Sim) writeLoop(sub *subscriber) {
	defer s.wg.Done()
	defer sub.conn.Close()
	ping := time.NewTicker(s.pingInterval)
	defer ping.Stop()
	for {
		var f []byte
		select {
		case <-sub.done:
			return
		case <-s.done:
			return
		case <-sub.freeze:
			s.frozen(sub)
			return
		case <-ping.C:
			if err := sub.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				return
			}
			continue
		case f = <-sub.frames:
		case f = <-sub.queue:
		}
		sub.writing.Store(true)
		err := s.writeFrame(sub, f)
		sub.writing.Store(false)
		if err != nil {
			s.log.Debug("websocket write failed", "number", sub.number, "err", err)
			return
		}
	}
}

// writeFrame writes one text frame after the configured extra write cost.
func (s *Sim) writeFrame(sub *subscriber, f []byte) error {
	s.mu.Lock()
	cost := s.latency.FrameWrite
	s.mu.Unlock()
	if cost > 0 {
		t := time.NewTimer(cost)
		select {
		case <-t.C:
		case <-sub.done:
			t.Stop()
			return errClosed
		case <-s.done:
			t.Stop()
			return errClosed
		}
	}
	if err := sub.conn.WriteMessage(websocket.TextMessage, f); err != nil {
		return err
	}
	s.stats.written.Add(1)
	return nil
}

// addSub registers sub.
func (s *Sim) addSub(sub *subscriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subs[sub] = struct{}{}
	s.notifySubsLocked()
	s.log.Debug("websocket client connected", "number", sub.number, "subscribers", len(s.subs))
}

// dropSub unregisters sub, stops its writer and closes its socket, if the
// handshake has made one.
func (s *Sim) dropSub(sub *subscriber) {
	s.mu.Lock()
	delete(s.subs, sub)
	sub.once.Do(func() { close(sub.done) })
	s.notifySubsLocked()
	conn := sub.conn
	s.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
}

// notifySubsLocked wakes WaitSubscribers callers; s.mu must be held.
func (s *Sim) notifySubsLocked() {
	close(s.subsChanged)
	s.subsChanged = make(chan struct{})
}

// Disconnect closes every websocket connection now, without a close frame, as when the REST
// API's container stops. Clients see an abnormal closure and must reconnect.
func (s *Sim) Disconnect() { s.disconnect() }

// disconnect closes every websocket connection and reports how many there were.
func (s *Sim) disconnect() int {
	s.mu.Lock()
	subs := make([]*subscriber, 0, len(s.subs))
	for sub := range s.subs {
		subs = append(subs, sub)
	}
	s.mu.Unlock()
	for _, sub := range subs {
		s.dropSub(sub) // unregistered now, so Stats and WaitSubscribers see it at once
	}
	return len(subs)
}

// WaitSubscribers blocks until at least n websocket clients are connected or ctx ends.
func (s *Sim) WaitSubscribers(ctx context.Context, n int) error {
	for {
		s.mu.Lock()
		have, changed := len(s.subs), s.subsChanged
		s.mu.Unlock()
		if have >= n {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
