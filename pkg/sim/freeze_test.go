package sim

import (
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// A frozen connection stays open but sends neither frames nor pings; a new
// connection works.
func TestFreezeSilencesOpenConnections(t *testing.T) {
	h := start(t, Config{Lossless: true, PingInterval: 10 * time.Millisecond})
	old := h.dial(DefaultNumber)
	var pings atomic.Int64
	old.SetPingHandler(func(string) error { pings.Add(1); return nil })
	if _, err := h.sim.Deliver(Message{Text: "before"}); err != nil {
		t.Fatal(err)
	}
	wantValue(t, wantObject(t, wantObject(t, readFrame(t, old), "envelope"), "dataMessage"), "message", "before")

	if n := h.sim.Freeze(); n != 1 {
		t.Fatalf("Freeze() = %d; want 1 connection frozen", n)
	}
	if _, err := h.sim.Deliver(Message{Text: "after"}); err != nil {
		t.Fatal(err)
	}
	pings.Store(0)
	// 30 ping intervals: a live connection would have pinged and sent the frame.
	if err := old.SetReadDeadline(time.Now().Add(300 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, b, err := old.ReadMessage()
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("read on a frozen connection = %q, %v; want a read timeout", b, err)
	}
	// A live connection pings about 30 times in that window. A ping or two
	// may have been on their way when Freeze ran.
	if n := pings.Load(); n > 3 {
		t.Errorf("%d pings after Freeze; want at most the few already on their way", n)
	}
	if got := h.sim.Stats().Subscribers; got != 1 {
		t.Errorf("subscribers = %d; want 1: a frozen connection is not closed", got)
	}

	fresh := h.dial(DefaultNumber)
	if _, err := h.sim.Deliver(Message{Text: "fresh"}); err != nil {
		t.Fatal(err)
	}
	wantValue(t, wantObject(t, wantObject(t, readFrame(t, fresh), "envelope"), "dataMessage"), "message", "fresh")
}
