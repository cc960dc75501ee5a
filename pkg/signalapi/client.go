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
)

// Config says where the REST API is and which account the bot is, read from
// the environment by package config and checked there once, by Validate.
// New trusts it: a zero timeout would make every call fail at once.
type Config struct {
	BaseURL     string        `env:"SIGNAL_API_URL" help:"signal-cli-rest-api base URL (json-rpc mode); empty: the built-in simulator (sandbox)"`
	Number      string        `env:"SIGNAL_NUMBER" help:"the bot's Signal account, +48…; required with SIGNAL_API_URL"`
	CallTimeout time.Duration `env:"CALL_TIMEOUT, default=10s" help:"timeout of REST calls other than send"`
	SendTimeout time.Duration `env:"SEND_TIMEOUT, default=60s" help:"timeout of one POST /v2/send (uploads are slow)"`
	ReadTimeout time.Duration `env:"WS_READ_TIMEOUT, default=90s" help:"websocket read deadline, reset by every frame and ping (the server pings every 54 s)"`
}

// Validate names each variable of c that is out of range. An empty
// BaseURL and Number are the sandbox, which fills both in before New.
func (c Config) Validate() error {
	var errs []error
	switch {
	case c.BaseURL != "" && c.Number == "":
		errs = append(errs, errors.New("SIGNAL_NUMBER is required with SIGNAL_API_URL"))
	case c.BaseURL == "" && c.Number != "":
		errs = append(errs, errors.New("SIGNAL_API_URL is required with SIGNAL_NUMBER (unset both to run the sandbox)"))
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"CALL_TIMEOUT", c.CallTimeout}, {"SEND_TIMEOUT", c.SendTimeout}, {"WS_READ_TIMEOUT", c.ReadTimeout}} {
		if t.d <= 0 {
			errs = append(errs, fmt.Errorf("%s must be positive, got %s", t.name, t.d))
		}
	}
	return errors.Join(errs...)
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
// no overall Timeout: each call sets its own.
func New(cfg Config, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &Client{cfg: cfg, hc: hc}
}

// Number is the bot's account.
func (c *Client) Number() string { return c.cfg.Number }

// Connected reports whether the websocket is up now.
func (c *Client) Connected() bool { return c.connected.Load() }

// Reconnects counts websocket connections made after the first.
func (c *Client) Reconnects() int64 { return c.reconnects.Load() }

// About is GET /v1/about (the REST API's About, src/client/client.go): its
// API versions, build, mode, its own release (BUILD_VERSION, "unset" for a
// build from source) and capabilities; not signal-cli's version.
type About struct {
	Versions     []string            `json:"versions"`
	Build        int                 `json:"build"`
	Mode         string              `json:"mode"`
	Version      string              `json:"version"`
	Capabilities map[string][]string `json:"capabilities"`
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
