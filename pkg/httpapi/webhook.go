package httpapi

import (
	"fmt"
	"net/http"
)

// MountWebhook returns a handler that serves hook (signalapi.Webhook, the
// receiver of the REST API's RECEIVE_WEBHOOK_URL POSTs) at path (checked by
// CheckWebhookPath) and everything else with next.
func MountWebhook(path string, hook, next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(path, hook)
	mux.Handle("/", next)
	return mux
}

// CheckWebhook refuses webhook mode on a non-loopback address without WEBHOOK_TOKEN: the
// endpoint cannot use the selftest bearer token, since the REST API sends no header.
func CheckWebhook(addr, token string) error {
	if token != "" || CheckAddr(addr, "") == nil {
		return nil
	}
	return fmt.Errorf("HTTP_ADDR %q is not loopback: with RECEIVE_MODE=webhook set WEBHOOK_TOKEN and add ?token=<it> to RECEIVE_WEBHOOK_URL", addr)
}
