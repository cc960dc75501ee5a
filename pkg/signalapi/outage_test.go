package signalapi_test

import (
	"io"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"signal-bot/internal/testkit"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// outage is a TCP proxy in front of the simulator that can play a REST API
// container that is down: while down it closes every connection it has and
// every new one at once, so the bot's dials fail.
type outage struct {
	ln     net.Listener
	target string
	down   atomic.Bool
	dials  atomic.Int64 // connections refused while down
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup
}

// newOutage proxies a loopback port to target (host:port) until the test ends.
func newOutage(t *testing.T, target string) *outage {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &outage{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	o.wg.Add(1)
	go o.accept()
	t.Cleanup(o.close)
	return o
}

// URL is the proxy's base URL.
func (o *outage) URL() string { return "http://" + o.ln.Addr().String() }

// setDown starts (true) or ends (false) the outage.
func (o *outage) setDown(down bool) {
	o.down.Store(down)
	if down {
		o.closeConns()
	}
}

func (o *outage) accept() {
	defer o.wg.Done()
	for {
		c, err := o.ln.Accept()
		if err != nil {
			return
		}
		if o.down.Load() {
			o.dials.Add(1)
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", o.target)
		if err != nil {
			c.Close()
			continue
		}
		o.track(c, up)
		o.wg.Add(2)
		go o.pipe(c, up)
		go o.pipe(up, c)
	}
}

func (o *outage) pipe(dst, src net.Conn) {
	defer o.wg.Done()
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

func (o *outage) track(cs ...net.Conn) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, c := range cs {
		o.conns[c] = struct{}{}
	}
}

func (o *outage) closeConns() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for c := range o.conns {
		c.Close()
	}
	clear(o.conns)
}

func (o *outage) close() {
	o.ln.Close()
	o.closeConns()
	o.wg.Wait()
}

// The REST API is gone for 3 s (dials fail), then back: the bot, backing
// off meanwhile, is connected again within the backoff cap (2 s; the pure
// schedule is checked in pkg/signalapi's TestBackoffIsCapped) and answers.
func TestRedialAfterOutage(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	u, err := url.Parse(h.Env["SIGNAL_API_URL"])
	if err != nil {
		t.Fatal(err)
	}
	o := newOutage(t, u.Host)
	h.Env["SIGNAL_API_URL"] = o.URL()
	h.Start()
	h.Say(botest.Alice, "", "!pomoc")
	h.WaitSent(1)
	h.WaitIdle(1) // the 201 is back at the bot before the outage starts

	o.setDown(true)
	testkit.WaitFor(t, "the bot to notice", func() bool { return h.Health()["connected"] == false })
	time.Sleep(3 * time.Second)
	back := time.Now()
	o.setDown(false)
	h.WaitReconnected()
	took := time.Since(back)
	t.Logf("reconnected %v after the REST API came back; %d dials refused during the 3 s outage",
		took.Round(time.Millisecond), o.dials.Load())
	if o.dials.Load() < 2 {
		t.Errorf("%d dials during the outage; want the bot to keep redialling", o.dials.Load())
	}
	if got := botest.Value(h.Scrape(), "signal_bot_websocket_reconnects_total", nil); got != 1 {
		t.Errorf("signal_bot_websocket_reconnects_total = %v; want 1", got)
	}
	h.Say(botest.Bob, "", "!pomoc")
	if got := h.WaitSent(2)[1]; got.Recipients[0] != botest.Bob {
		t.Errorf("reply after the outage went to %v; want bob", got.Recipients)
	}
	h.WaitIdle(2)
}
