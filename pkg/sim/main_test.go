package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testTimeout bounds every wait in these tests; nothing here should come near it.
const testTimeout = 10 * time.Second

// harness is a started simulator with a private HTTP client.
type harness struct {
	t    *testing.T
	sim  *Sim
	url  string
	http *http.Client
}

// start starts a simulator on loopback and closes it when the test ends.
func start(t *testing.T, cfg Config) *harness {
	t.Helper()
	s := New(cfg)
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	tr := &http.Transport{}
	h := &harness{t: t, sim: s, url: url, http: &http.Client{Transport: tr, Timeout: testTimeout}}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return h
}

// ctx returns a context bounded by testTimeout.
func (h *harness) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	h.t.Cleanup(cancel)
	return ctx
}

// response is a read HTTP answer.
type response struct {
	status int
	ctype  string
	body   string
}

// do sends a request with a string body ("" for none) and reads the whole answer.
func (h *harness) do(method, path, body string) response {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(h.ctx(), method, h.url+path, rd)
	if err != nil {
		h.t.Fatalf("new request %s %s: %v", method, path, err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := h.http.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatalf("read %s %s: %v", method, path, err)
	}
	return response{status: res.StatusCode, ctype: res.Header.Get("Content-Type"), body: string(b)}
}

// dial opens a websocket to /v1/receive/<number> (number as written in the path) and waits
// until the simulator has registered it, so offers can reach it.
func (h *harness) dial(pathNumber string) *websocket.Conn {
	h.t.Helper()
	before := h.sim.Stats().Subscribers
	wsURL := "ws" + strings.TrimPrefix(h.url, "http") + "/v1/receive/" + pathNumber
	conn, res, err := websocket.DefaultDialer.DialContext(h.ctx(), wsURL, nil)
	if err != nil {
		h.t.Fatalf("dial %s: %v", wsURL, err)
	}
	res.Body.Close()
	h.t.Cleanup(func() { conn.Close() })
	if err := h.sim.WaitSubscribers(h.ctx(), before+1); err != nil {
		h.t.Fatalf("WaitSubscribers(%d): %v", before+1, err)
	}
	return conn
}

// readFrame reads one text frame within testTimeout and decodes it generically.
func readFrame(t *testing.T, conn *websocket.Conn) map[string]any {
	t.Helper()
	b := readRaw(t, conn)
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("decode frame %s: %v", b, err)
	}
	return m
}

// readRaw reads one text frame within testTimeout.
func readRaw(t *testing.T, conn *websocket.Conn) []byte {
	t.Helper()
	if err := conn.SetReadDeadline(time.Now().Add(testTimeout)); err != nil {
		t.Fatalf("set read deadline: %v", err)
	}
	typ, b, err := conn.ReadMessage()
	if err != nil {
		t.Fatalf("read frame: %v", err)
	}
	if typ != websocket.TextMessage {
		t.Fatalf("frame type = %d; want text (%d)", typ, websocket.TextMessage)
	}
	return b
}
