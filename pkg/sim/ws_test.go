package sim

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestReceivePlainGETIsBadRequest(t *testing.T) {
	h := start(t, Config{})
	for _, path := range []string{"/v1/receive/+48500000001", "/v1/receive/%2B48500000001?timeout=1"} {
		got := h.do(http.MethodGet, path, "")
		want := response{
			status: http.StatusBadRequest,
			ctype:  "text/plain; charset=utf-8",
			body:   "Bad Request\n" + `{"error":"websocket: the client is not using the websocket protocol: 'upgrade' token not found in 'Connection' header"}`,
		}
		if got != want {
			t.Errorf("GET %s = %+v; want %+v", path, got, want)
		}
	}
}

func TestReceiveFiltersByAccount(t *testing.T) {
	h := start(t, Config{Lossless: true})
	bot := h.dial("+48500000001")
	other := h.dial("%2B48999")
	if _, err := h.sim.Deliver(Message{Text: "for the bot"}); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	raw := `{"envelope":{"source":"x"},"account":"+48999"}`
	h.sim.DeliverRaw([]byte(raw))

	env := wantObject(t, readFrame(t, bot), "envelope")
	wantValue(t, wantObject(t, env, "dataMessage"), "message", "for the bot")
	// The other account's first frame is its own: it never saw the bot's.
	if got := string(readRaw(t, other)); got != raw {
		t.Errorf("other account's first frame = %s; want %s", got, raw)
	}
	if st := h.sim.Stats(); st.Offered != 2 || st.Delivered != 2 || st.DroppedNoSubscriber != 0 {
		t.Errorf("stats = %+v; want offered 2, delivered 2, none dropped", st)
	}
}

func TestReceiveEveryClientGetsACopy(t *testing.T) {
	h := start(t, Config{Lossless: true})
	a, b := h.dial("+48500000001"), h.dial("+48500000001")
	ts, err := h.sim.Deliver(Message{Text: "hi"})
	if err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	for _, c := range []*websocket.Conn{a, b} {
		env := wantObject(t, readFrame(t, c), "envelope")
		wantValue(t, env, "timestamp", itoa(ts))
	}
	if st := h.sim.Stats(); st.Offered != 1 || st.Delivered != 2 {
		t.Errorf("stats = %+v; want offered 1, delivered 2", st)
	}
}

func TestReceiveNoSubscriberDropsFrame(t *testing.T) {
	h := start(t, Config{})
	for range 3 {
		if _, err := h.sim.Deliver(Message{Text: "lost"}); err != nil {
			t.Fatalf("Deliver: %v", err)
		}
	}
	if st := h.sim.Stats(); st.Offered != 3 || st.DroppedNoSubscriber != 3 || st.Delivered != 0 {
		t.Errorf("stats = %+v; want 3 offered, 3 dropped for no subscriber", st)
	}
}

// A client whose dial has returned is registered already: a frame offered
// at once reaches it, in both loss modes. (The real server registers a
// moment after its 101, and a frame offered in between reaches nobody.)
func TestReceiveRegisteredBeforeTheHandshakeIsAnswered(t *testing.T) {
	for _, lossless := range []bool{false, true} {
		h := start(t, Config{Lossless: lossless})
		wsURL := "ws" + strings.TrimPrefix(h.url, "http") + "/v1/receive/" + h.sim.Number()
		conn, res, err := websocket.DefaultDialer.DialContext(h.ctx(), wsURL, nil)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		res.Body.Close()
		if n := h.sim.Stats().Subscribers; n != 1 {
			t.Errorf("lossless %v: %d subscribers as the dial returns; want 1", lossless, n)
		}
		if _, err := h.sim.Deliver(Message{Text: "at once"}); err != nil {
			t.Fatalf("Deliver: %v", err)
		}
		if got := readFrame(t, conn); got["envelope"] == nil {
			t.Errorf("lossless %v: frame %v; want the message's envelope", lossless, got)
		}
		conn.Close()
	}
}

func TestReceiveBurstLoss(t *testing.T) {
	const n = 20
	tests := []struct {
		name     string
		lossless bool
		write    time.Duration
	}{
		// Each write takes 50 ms, the 20 offers microseconds: all but the first land while
		// the writer is busy.
		{"lossy", false, 50 * time.Millisecond},
		{"lossless", true, 2 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, Config{Lossless: tt.lossless, Latency: Latency{FrameWrite: tt.write}})
			conn := h.dial("+48500000001")
			for i := range n {
				if _, err := h.sim.Deliver(Message{Text: "!pomoc " + itoa(int64(i))}); err != nil {
					t.Fatalf("Deliver: %v", err)
				}
			}
			st := h.sim.Stats()
			if st.Offered != n || st.Delivered+st.DroppedBusy != n {
				t.Fatalf("stats = %+v; want %d offered, each delivered or dropped busy", st, n)
			}
			if tt.lossless && (st.Delivered != n || st.DroppedBusy != 0) {
				t.Errorf("lossless: delivered %d, dropped busy %d; want %d, 0", st.Delivered, st.DroppedBusy, n)
			}
			if !tt.lossless && st.DroppedBusy == 0 {
				t.Errorf("lossy: dropped busy = 0; want frames lost to the busy writer")
			}
			var last int64
			for range st.Delivered {
				env := wantObject(t, readFrame(t, conn), "envelope")
				ts, _ := env["timestamp"].(json.Number).Int64()
				if ts <= last {
					t.Errorf("timestamp %d after %d; want increasing", ts, last)
				}
				last = ts
			}
		})
	}
}

func TestReceivePings(t *testing.T) {
	h := start(t, Config{PingInterval: 20 * time.Millisecond})
	conn := h.dial("+48500000001")
	pinged := make(chan struct{}, 1)
	conn.SetPingHandler(func(string) error {
		select {
		case pinged <- struct{}{}:
		default:
		}
		return nil
	})
	readDone := make(chan error, 1)
	go func() {
		_, _, err := conn.ReadMessage() // control frames are handled inside reads
		readDone <- err
	}()
	select {
	case <-pinged:
	case <-time.After(testTimeout):
		t.Fatal("no ping within the test timeout")
	}
	conn.Close()
	<-readDone
}

func TestReceiveReadLimit(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("+48500000001")
	// Small client frames are ignored.
	if err := conn.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("x", 100))); err != nil {
		t.Fatalf("write small frame: %v", err)
	}
	if _, err := h.sim.Deliver(Message{Text: "still here"}); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	readFrame(t, conn)
	// A frame over 512 bytes closes the socket.
	if err := conn.WriteMessage(websocket.TextMessage, []byte(strings.Repeat("x", 600))); err != nil {
		t.Fatalf("write big frame: %v", err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(testTimeout))
	_, _, err := conn.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Errorf("read after a 600-byte frame: %v; want close %d", err, websocket.CloseMessageTooBig)
	}
}

func TestDisconnectThenReconnect(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("+48500000001")
	h.sim.Disconnect()
	_ = conn.SetReadDeadline(time.Now().Add(testTimeout))
	if _, _, err := conn.ReadMessage(); err == nil {
		t.Fatal("read after Disconnect: got a frame; want an error")
	}
	again := h.dial("+48500000001")
	if _, err := h.sim.Deliver(Message{Text: "after reconnect"}); err != nil {
		t.Fatalf("Deliver: %v", err)
	}
	env := wantObject(t, readFrame(t, again), "envelope")
	wantValue(t, wantObject(t, env, "dataMessage"), "message", "after reconnect")
}
