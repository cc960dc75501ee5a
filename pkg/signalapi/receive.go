package signalapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"signal-bot/pkg/backoff"
)

// Reconnect waits: the REST API runs beside the bot, so a quick, capped redial
// is cheap, and a server that comes back is found within the cap.
const (
	backoffBase = 100 * time.Millisecond
	backoffMax  = 2 * time.Second
)

// Receive reads frames from the websocket /v1/receive/<number> until ctx ends
// and hands each text frame, with the time it was read, to in (ViaWebsocket:
// Offer never blocks the reader). It redials with capped, jittered backoff
// after any error; the attempt counter resets after every connection that
// was established. It returns nil when ctx ends.
func (c *Client) Receive(ctx context.Context, log *slog.Logger, in Intake) error {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x5167))
	attempt, connections := 0, 0
	onConnect := func() { // counted when made, not when it ends: /metrics shows a live reconnect
		if connections++; connections > 1 {
			c.reconnects.Add(1)
		}
	}
	for {
		connected, err := c.receiveOnce(ctx, in, onConnect)
		if ctx.Err() != nil {
			return nil
		}
		if connected {
			attempt = 0
		}
		wait := backoff.Delay(attempt, backoffBase, backoffMax, rng.Float64())
		attempt++
		log.WarnContext(ctx, "websocket receive interrupted; redialling", "err", err, "wait", wait.Round(time.Millisecond), "attempt", attempt)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

func (c *Client) receiveURL() (string, error) {
	u, err := url.Parse(c.cfg.BaseURL)
	if err != nil {
		return "", fmt.Errorf("parse SIGNAL_API_URL: %w", err)
	}
	switch u.Scheme {
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/v1/receive/" + url.PathEscape(c.cfg.Number)
	return u.String(), nil
}

// receiveOnce runs one connection, calling onConnect once it is made.
// connected tells whether the handshake succeeded.
func (c *Client) receiveOnce(ctx context.Context, in Intake, onConnect func()) (connected bool, err error) {
	u, err := c.receiveURL()
	if err != nil {
		return false, err
	}
	d := websocket.Dialer{HandshakeTimeout: c.cfg.CallTimeout}
	conn, res, err := d.DialContext(ctx, u, nil)
	if res != nil && res.Body != nil {
		res.Body.Close()
	}
	if err != nil {
		return false, fmt.Errorf("dial websocket: %w", err)
	}
	c.connected.Store(true)
	defer c.connected.Store(false)
	onConnect()

	stop := make(chan struct{})
	defer close(stop)
	go func() { // unblocks ReadMessage when ctx ends
		select {
		case <-ctx.Done():
		case <-stop:
		}
		conn.Close()
	}()

	conn.SetReadLimit(MaxFrame)
	extend := func() error { return conn.SetReadDeadline(time.Now().Add(c.cfg.ReadTimeout)) }
	if err := extend(); err != nil {
		return true, fmt.Errorf("set read deadline: %w", err)
	}
	conn.SetPingHandler(func(data string) error {
		if err := extend(); err != nil {
			return err
		}
		err := conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(5*time.Second))
		if errors.Is(err, websocket.ErrCloseSent) {
			return nil
		}
		return err
	})
	conn.SetPongHandler(func(string) error { return extend() })
	for {
		kind, raw, err := conn.ReadMessage()
		if err != nil {
			return true, fmt.Errorf("read frame: %w", err)
		}
		readAt := time.Now()
		if err := extend(); err != nil {
			return true, fmt.Errorf("set read deadline: %w", err)
		}
		if kind == websocket.TextMessage {
			_, _ = in.Offer(ctx, raw, readAt, ViaWebsocket) // a refusal is the intake's to count and log
		}
	}
}
