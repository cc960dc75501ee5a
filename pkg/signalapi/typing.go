package signalapi

import (
	"context"
	"net/http"
	"net/url"
)

// Typing shows (on) or clears Signal's typing indicator in the chat of
// recipient (a number, UUID or group.… id): PUT or DELETE
// /v1/typing-indicator/<number>, answered 204. Signal delivers it as a
// message, and counts it like one.
func (c *Client) Typing(ctx context.Context, recipient string, on bool) error {
	method := http.MethodPut
	if !on {
		method = http.MethodDelete
	}
	return c.callJSON(ctx, method+" typing indicator", method, "/v1/typing-indicator/"+url.PathEscape(c.cfg.Number), struct {
		Recipient string `json:"recipient"`
	}{recipient})
}
