package app

import (
	"context"
	"net/http"

	"signal-bot/pkg/config"
	"signal-bot/pkg/upstream"
)

// transports are the connection pools under every client of the bot.
type transports struct {
	base   *http.Transport // the REST API's
	up     *http.Transport // base under the fetch policy, for upstream calls
	policy *upstream.Policy
}

// newTransports builds the REST API's transport and the upstreams' under
// UPSTREAM_ALLOW's fetch policy. Its closer closes their idle connections.
func newTransports(cfg config.Config) (transports, closer) {
	base := baseTransport(cfg.Pipeline.Limit)
	policy, _ := upstream.NewPolicy(cfg.Upstreams.Allow, nil) // checked by config.Load
	t := transports{base: base, up: policy.Transport(base), policy: policy}
	return t, func(context.Context) error {
		t.base.CloseIdleConnections()
		t.up.CloseIdleConnections()
		return nil
	}
}

func baseTransport(limit int) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 2 * limit
	t.ResponseHeaderTimeout = 0 // sends are slow; each call has its own deadline
	return t
}
