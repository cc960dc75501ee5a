package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// hookPost is one request the test webhook received.
type hookPost struct {
	ctype string
	body  []byte
}

// hookServer starts a webhook on loopback that hands every request to handle after
// recording it on posts, and closes it when the test ends.
func hookServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request)) (string, chan hookPost) {
	t.Helper()
	posts := make(chan hookPost, 256)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- hookPost{ctype: r.Header.Get("Content-Type"), body: b}
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/hook?token=t0k", posts
}

// waitStats polls the simulator's Stats until ok holds, within testTimeout.
func waitStats(t *testing.T, s *Sim, ok func(Stats) bool) Stats {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for st := s.Stats(); ; st = s.Stats() {
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats never got there: %+v", st)
		}
		time.Sleep(time.Millisecond)
	}
}

// Every notification is POSTed once, in order, as the full JSON-RPC line that signal-cli
// wrote (newline included), whether or not a websocket client is connected.
func TestWebhookPostsEveryLineInOrder(t *testing.T) {
	const n = 50
	url, posts := hookServer(t, func(http.ResponseWriter, *http.Request) {})
	h := start(t, Config{WebhookURL: url})
	for i := range n {
		if _, err := h.sim.Deliver(Message{Text: fmt.Sprintf("m%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		var p hookPost
		select {
		case p = <-posts:
		case <-h.ctx().Done():
			t.Fatalf("only %d of %d lines posted", i, n)
		}
		if p.ctype != "application/json" || !strings.HasSuffix(string(p.body), "}\n") {
			t.Errorf("post %d: Content-Type %q, body %q; want JSON ending in a newline", i, p.ctype, p.body)
		}
		var line struct {
			JSONRPC, Method string
			Params          struct {
				Account  string
				Envelope struct{ DataMessage struct{ Message string } }
			}
		}
		if err := json.Unmarshal(p.body, &line); err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
		msg := line.Params.Envelope.DataMessage.Message
		if line.JSONRPC != "2.0" || line.Method != "receive" || line.Params.Account != DefaultNumber || msg != fmt.Sprintf("m%d", i) {
			t.Errorf("post %d = %+v; want receive of m%d for %s", i, line, i, DefaultNumber)
		}
	}
	st := waitStats(t, h.sim, func(st Stats) bool { return st.WebhookPosted == n })
	if st.Offered != n || st.WebhookFailed != 0 || st.DroppedNoSubscriber != 0 {
		t.Errorf("stats = %+v; want %d offered and posted, nothing failed or dropped", st, n)
	}
}

// Only 200 and 201 count as delivered, as on the real server; anything else, or no answer,
// is logged and counted as lost.
func TestWebhookFailuresCounted(t *testing.T) {
	tests := []struct {
		name       string
		status     int // 0: nobody listens
		wantPosted int64
	}{
		{"200", 200, 1},
		{"201", 201, 1},
		{"202 is not accepted", 202, 0},
		{"204 is not accepted", 204, 0},
		{"400", 400, 0},
		{"503", 503, 0},
		{"unreachable", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, _ := hookServer(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(tt.status) })
			if tt.status == 0 {
				srv := httptest.NewServer(http.NotFoundHandler())
				url = srv.URL
				srv.Close()
			}
			h := start(t, Config{WebhookURL: url})
			if _, err := h.sim.Deliver(Message{Text: "hi"}); err != nil {
				t.Fatal(err)
			}
			st := waitStats(t, h.sim, func(st Stats) bool { return st.WebhookPosted+st.WebhookFailed == 1 })
			if st.WebhookPosted != tt.wantPosted {
				t.Errorf("posted %d, failed %d; want posted %d", st.WebhookPosted, st.WebhookFailed, tt.wantPosted)
			}
		})
	}
}

// While a webhook POST is in flight, a /v2/send waits: its answer from signal-cli comes
// through the read loop that is busy posting. It is answered once the webhook returns.
func TestWebhookSlowPostHoldsSend(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var events []string
	note := func(e string) { mu.Lock(); events = append(events, e); mu.Unlock() }
	url, posts := hookServer(t, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
			note("webhook answered")
		case <-r.Context().Done(): // the test failed early and the simulator closed
		}
	})
	h := start(t, Config{WebhookURL: url})
	if _, err := h.sim.Deliver(Message{Text: "slow"}); err != nil {
		t.Fatal(err)
	}
	<-posts // the POST is in flight and the handler waits for release
	sent := make(chan response, 1)
	go func() {
		r := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "hi", nil))
		note("send answered")
		sent <- r
	}()
	for i := 0; h.sim.hook.waiting.Load() == 0; i++ { // the send now waits for the read loop
		if i > int(testTimeout/time.Millisecond) {
			t.Fatal("the send never waited for the read loop")
		}
		time.Sleep(time.Millisecond)
	}
	if n := h.sim.Stats().Sends; n != 0 {
		t.Fatalf("%d sends answered while the webhook is busy; want 0", n)
	}
	close(release)
	if r := <-sent; r.status != http.StatusCreated {
		t.Fatalf("send after the webhook returned = %+v; want 201", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"webhook answered", "send answered"}; strings.Join(events, ",") != strings.Join(want, ",") {
		t.Errorf("events = %q; want %q", events, want)
	}
}

// A webhook handler that sends synchronously deadlocks the REST API until its own client
// gives up (docs/wire-format.md §1): the send can never be answered while the POST waits for it.
func TestWebhookSendFromHandlerDeadlocks(t *testing.T) {
	var h *harness
	inner := make(chan error, 1)
	url, _ := hookServer(t, func(w http.ResponseWriter, _ *http.Request) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond) // the bot's send timeout
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.url+"/v2/send",
			strings.NewReader(sendBody(DefaultNumber, []string{DefaultSender}, "reply", nil)))
		res, err := h.http.Do(req)
		if err == nil {
			res.Body.Close()
			err = fmt.Errorf("answered %d", res.StatusCode)
		}
		inner <- err
	})
	h = start(t, Config{WebhookURL: url})
	if _, err := h.sim.Deliver(Message{Text: "!pomoc"}); err != nil {
		t.Fatal(err)
	}
	if err := <-inner; !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("send from inside the webhook: %v; want the sender's deadline", err)
	}
	if r := h.do(http.MethodPost, "/v2/send", sendBody(DefaultNumber, []string{DefaultSender}, "later", nil)); r.status != 201 {
		t.Errorf("send after the webhook returned = %+v; want 201", r)
	}
	// The inner send is not asserted on the server side: its client gave up, but whether the
	// simulator noticed before the loop freed its answer is a race, as on the real server.
	if st := h.sim.Stats(); st.WebhookPosted != 1 {
		t.Errorf("stats = %+v; want 1 post", st)
	}
}

// The real server still offers each frame to websocket clients when a webhook is set
// (client/jsonrpc2.go ReceiveData fans out, then posts), so a client gets a copy too.
func TestWebhookAndWebsocketBothGetTheFrame(t *testing.T) {
	url, posts := hookServer(t, func(http.ResponseWriter, *http.Request) {})
	h := start(t, Config{WebhookURL: url, Lossless: true})
	conn := h.dial(DefaultNumber)
	if _, err := h.sim.Deliver(Message{Text: "both"}); err != nil {
		t.Fatal(err)
	}
	f := readFrame(t, conn)
	wantValue(t, f, "account", DefaultNumber)
	if p := <-posts; !strings.Contains(string(p.body), `"message":"both"`) {
		t.Errorf("webhook body %s lacks the message", p.body)
	}
	if st := waitStats(t, h.sim, func(st Stats) bool { return st.WebhookPosted == 1 }); st.Delivered != 1 {
		t.Errorf("stats = %+v; want 1 websocket copy delivered", st)
	}
}

// A raw frame that is not JSON makes an unparsable line: the real server logs it and posts
// nothing.
func TestWebhookUnparsableLineNotPosted(t *testing.T) {
	url, posts := hookServer(t, func(http.ResponseWriter, *http.Request) {})
	h := start(t, Config{WebhookURL: url})
	h.sim.DeliverRaw([]byte("not json"))
	h.sim.DeliverRaw([]byte(`{"account":"` + DefaultNumber + `"}`))
	<-posts
	st := waitStats(t, h.sim, func(st Stats) bool { return st.WebhookPosted+st.WebhookFailed == 2 })
	if st.WebhookPosted != 1 || st.WebhookFailed != 1 {
		t.Errorf("stats = %+v; want 1 posted, 1 failed", st)
	}
}

// PUT /_sim/mode switches webhook mode on and off and refuses what is not an http URL.
func TestWebhookModeControl(t *testing.T) {
	h := start(t, Config{})
	tests := []struct {
		body, wantURL string
		wantStatus    int
	}{
		{`{"webhook_url":"http://127.0.0.1:9923/_webhook?token=x"}`, "http://127.0.0.1:9923/_webhook?token=x", 200},
		{`{"lossless":true}`, "http://127.0.0.1:9923/_webhook?token=x", 200}, // left out: kept
		{`{"webhook_url":"ftp://example.invalid/x"}`, "http://127.0.0.1:9923/_webhook?token=x", 400},
		{`{"webhook_url":"/relative"}`, "http://127.0.0.1:9923/_webhook?token=x", 400},
		{`{"webhook_url":""}`, "", 200},
	}
	for _, tt := range tests {
		if r := h.do(http.MethodPut, "/_sim/mode", tt.body); r.status != tt.wantStatus {
			t.Errorf("PUT %s = %+v; want %d", tt.body, r, tt.wantStatus)
		}
		if got := h.sim.WebhookURL(); got != tt.wantURL {
			t.Errorf("after PUT %s: webhook %q; want %q", tt.body, got, tt.wantURL)
		}
	}
}
