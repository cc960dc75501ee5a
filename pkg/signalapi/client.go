package signalapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"signal-bot/pkg/fields"
)

// Config says where the REST API is and which account the bot is. Its
// timeouts have no defaults here: they are config.Signal's (CALL_TIMEOUT,
// SEND_TIMEOUT, WS_READ_TIMEOUT), and New refuses a Config without them.
type Config struct {
	BaseURL     string        // e.g. http://127.0.0.1:8080
	Number      string        // the bot's account, +48…
	CallTimeout time.Duration // per REST call other than send
	SendTimeout time.Duration // per POST /v2/send: uploads make it slow
	ReadTimeout time.Duration // websocket read deadline, reset by every frame and ping
}

// MaxFrame is the websocket read limit: the largest frame the client takes.
// It is a bound of the code, not a setting.
const MaxFrame = 4 << 20

// Client talks to one signal-cli-rest-api for one account. It is safe for
// concurrent use.
type Client struct {
	cfg        Config
	hc         *http.Client // leg=send transport
	connected  atomic.Bool
	reconnects atomic.Int64
}

// New returns a client that makes its REST calls with hc (whose transport the
// caller may wrap for tracing; nil means http.DefaultClient). hc should have
// no overall Timeout: each call sets its own. New refuses a cfg without its
// address, account or timeouts, naming each missing field.
func New(cfg Config, hc *http.Client) (*Client, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Client{cfg: cfg, hc: hc}, nil
}

// check names every field of c that is missing or out of range.
func (c Config) check() error {
	return fields.Check("signalapi",
		fields.Required("Config.BaseURL", c.BaseURL),
		fields.Required("Config.Number", c.Number),
		fields.Positive("Config.CallTimeout", c.CallTimeout),
		fields.Positive("Config.SendTimeout", c.SendTimeout),
		fields.Positive("Config.ReadTimeout", c.ReadTimeout),
	)
}

// Number is the bot's account.
func (c *Client) Number() string { return c.cfg.Number }

// Connected reports whether the websocket is up now.
func (c *Client) Connected() bool { return c.connected.Load() }

// Reconnects counts websocket connections made after the first.
func (c *Client) Reconnects() int64 { return c.reconnects.Load() }

// About is GET /v1/about.
type About struct {
	Versions []string `json:"versions"`
	Build    int      `json:"build"`
	Mode     string   `json:"mode"`
	Version  string   `json:"version"`
}

// About fetches /v1/about.
func (c *Client) About(ctx context.Context) (About, error) {
	var a About
	err := c.getJSON(ctx, "/v1/about", &a)
	return a, err
}

// CheckMode fails unless the REST API runs in json-rpc mode, the only mode
// with a websocket receive.
func (c *Client) CheckMode(ctx context.Context) (About, error) {
	a, err := c.About(ctx)
	if err != nil {
		return a, err
	}
	if a.Mode != "json-rpc" {
		return a, fmt.Errorf("signal-cli-rest-api at %s runs in mode %q; signal-bot needs MODE=json-rpc", c.cfg.BaseURL, a.Mode)
	}
	return a, nil
}

func (c *Client) getJSON(ctx context.Context, path string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+path, nil)
	if err != nil {
		return fmt.Errorf("get %s: %w", path, err)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("get %s: %w", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("get %s: read body: %w", path, err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("get %s: %w", path, apiError(res.StatusCode, body))
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("get %s: decode: %w", path, err)
	}
	return nil
}

// errEmpty500 marks the REST API's 500 with an empty body: its connection to
// signal-cli is down and the request never reached it.
var errEmpty500 = errors.New("500 with empty body")
