package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
)

// loopDepth is how many lines the simulated read loop holds before the writer waits. It
// stands for the socket buffer between signal-cli and the REST API: when the loop is slow,
// signal-cli's writes wait, and nothing is dropped.
const loopDepth = 4096

// loopItem is one line the simulated read loop handles in order: a receive notification,
// which it POSTs to the webhook, or the JSON-RPC response a REST call waits for.
type loopItem struct {
	url   string        // notification: where to POST; "" for a response
	line  []byte        // notification: the JSON-RPC line, newline included
	reply chan struct{} // response: closed when the loop reaches it
}

// webhook is the RECEIVE_WEBHOOK_URL mode (docs/wire-format.md §1). The real server reads
// signal-cli's socket in one loop (client/jsonrpc2.go ReceiveData): for each receive
// notification it offers the params to the websocket clients without waiting, then POSTs
// the whole line to the webhook and waits for the answer, with an HTTP client without a
// timeout; the responses to REST calls come through the same loop, so they wait behind it.
type webhook struct {
	url     string // guarded by Sim.mu; "" means no webhook
	started bool   // guarded by Sim.mu; the loop goroutine runs
	lines   chan loopItem
	tr      *http.Transport
	waiting atomic.Int64 // REST calls waiting for their response line, for tests
}

// newWebhook returns the webhook state for url ("" for none); its loop starts on first use.
func newWebhook(url string) webhook {
	return webhook{url: url, lines: make(chan loopItem, loopDepth), tr: &http.Transport{}}
}

// WebhookURL returns the URL every receive notification is POSTed to, or "" in plain
// websocket mode.
func (s *Sim) WebhookURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hook.url
}

// SetWebhookURL switches webhook mode on (an http or https URL) or off (""). It applies to
// frames emitted from now on; lines already queued go to the URL they were queued for.
func (s *Sim) SetWebhookURL(u string) error {
	if u != "" {
		p, err := url.Parse(u)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("set webhook url %q: want an absolute http or https URL", u)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook.url = u
	return nil
}

// emitWebhook is emit in webhook mode. As on the real server the websocket clients of the
// account still get their copy, lossy as ever, and the whole JSON-RPC line is queued for
// the webhook. A frame without any websocket client is not counted as lost: the webhook is
// its sink. A frame that is not JSON is not POSTed, since the real server cannot parse the
// line and only logs it; it counts as WebhookFailed.
func (s *Sim) emitWebhook(url, account string, frame []byte) Outcome {
	var out Outcome
	if s.hasSubscriber(account) {
		out = s.offer(account, frame)
	} else {
		s.stats.offered.Add(1)
		out.Offered = 1
	}
	if !json.Valid(frame) {
		s.stats.webhookFailed.Add(1)
		s.log.Warn("webhook: unparsable line not posted", "bytes", len(frame))
		return out
	}
	line := make([]byte, 0, len(frame)+48)
	line = append(line, `{"jsonrpc":"2.0","method":"receive","params":`...)
	line = append(line, frame...)
	line = append(line, "}\n"...)
	if s.toLoop(context.Background(), loopItem{url: url, line: line}) {
		out.WebhookQueued++
	} else {
		s.stats.webhookFailed.Add(1)
	}
	return out
}

// hasSubscriber reports whether a websocket client would take a frame for account.
func (s *Sim) hasSubscriber(account string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for sub := range s.subs {
		if account == "" || sub.number == account {
			return true
		}
	}
	return false
}

// awaitLoop is the wait of a REST call for its JSON-RPC response, which reaches the REST
// API through the read loop, behind every line queued before it and after the webhook POST
// in flight. That is the deadlock of docs/wire-format.md §1: a webhook handler that calls
// /v2/send waits for a response the loop reads only after the handler has answered. Before
// the loop has ever run (plain websocket mode) it returns at once. It reports false when
// ctx ended or the simulator closed first.
func (s *Sim) awaitLoop(ctx context.Context) bool {
	s.mu.Lock()
	started := s.hook.started
	s.mu.Unlock()
	if !started {
		return true
	}
	s.hook.waiting.Add(1)
	defer s.hook.waiting.Add(-1)
	reply := make(chan struct{})
	if !s.toLoop(ctx, loopItem{reply: reply}) {
		return false
	}
	select {
	case <-reply:
		return true
	case <-ctx.Done():
	case <-s.done:
	}
	return false
}

// toLoop queues it for the read loop, starting the loop on first use. It waits while the
// queue is full and reports false when ctx ended or the simulator closed first.
func (s *Sim) toLoop(ctx context.Context, it loopItem) bool {
	if !s.startLoop() {
		return false
	}
	select {
	case s.hook.lines <- it:
		return true
	case <-ctx.Done():
	case <-s.done:
	}
	return false
}

// startLoop starts the read loop unless it runs already; false once the simulator closed.
func (s *Sim) startLoop() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if !s.hook.started {
		s.hook.started = true
		ctx, cancel := context.WithCancel(context.Background())
		s.wg.Add(2)
		go func() { // a POST without a timeout still ends when the simulator closes
			defer s.wg.Done()
			<-s.done
			cancel()
		}()
		go s.runLoop(ctx)
	}
	return true
}

// runLoop is the single read loop: lines are handled one at a time, in order.
func (s *Sim) runLoop(ctx context.Context) {
	defer s.wg.Done()
	defer s.hook.tr.CloseIdleConnections()
	for {
		select {
		case <-s.done:
			return
		case it := <-s.hook.lines:
			if it.reply != nil {
				close(it.reply)
				continue
			}
			s.post(ctx, it)
		}
	}
}

// post POSTs one line to the webhook and waits for the answer however long it takes, as
// the real server does. Anything but 200 or 201 is logged and the message is lost.
func (s *Sim) post(ctx context.Context, it loopItem) {
	err := s.postOnce(ctx, it)
	if err == nil {
		s.stats.webhookPosted.Add(1)
		return
	}
	s.stats.webhookFailed.Add(1)
	if ctx.Err() == nil {
		s.log.Error("couldn't post data to webhook", "err", err)
	}
}

func (s *Sim) postOnce(ctx context.Context, it loopItem) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, it.url, bytes.NewReader(it.line))
	if err != nil {
		return fmt.Errorf("post to webhook: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := (&http.Client{Transport: s.hook.tr}).Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL may carry the bot's token in its query
		}
		return fmt.Errorf("post to webhook: %w", err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated {
		return fmt.Errorf("post to webhook: unexpected status code returned (%d)", res.StatusCode)
	}
	return nil
}
