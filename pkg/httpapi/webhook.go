package httpapi

import (
	"fmt"
	"net/http"
	"strings"
)

// MountWebhook returns a handler that serves hook (signalapi.Webhook, the
// receiver of the REST API's RECEIVE_WEBHOOK_URL POSTs) at path and
// everything else with next. It refuses a path that is one of the bot's
// other endpoints or no plain path.
func MountWebhook(path string, hook, next http.Handler) (http.Handler, error) {
	switch path {
	case "/", "/_selftest", "/_override", "/healthz", "/metrics":
		return nil, fmt.Errorf("WEBHOOK_PATH %q is taken by another endpoint", path)
	}
	if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "{} ?#") {
		return nil, fmt.Errorf("WEBHOOK_PATH %q: want a plain path such as /_webhook", path)
	}
	mux := http.NewServeMux()
	mux.Handle(path, hook)
	mux.Handle("/", next)
	return mux, nil
}

// CheckWebhook refuses webhook mode on a non-loopback address without WEBHOOK_TOKEN: the
// endpoint cannot use the selftest bearer token, since the REST API sends no header.
func CheckWebhook(addr, token string) error {
	if token != "" || CheckAddr(addr, "") == nil {
		return nil
	}
	return fmt.Errorf("HTTP_ADDR %q is not loopback: with RECEIVE_MODE=webhook set WEBHOOK_TOKEN and add ?token=<it> to RECEIVE_WEBHOOK_URL", addr)
}
