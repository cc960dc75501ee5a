package signalapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	ctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	body, err := json.Marshal(struct {
		Recipient string `json:"recipient"`
	}{recipient})
	if err != nil {
		return fmt.Errorf("typing indicator: %w", err)
	}
	path := "/v1/typing-indicator/" + url.PathEscape(c.cfg.Number)
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s typing indicator: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%s typing indicator: %w", method, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if res.StatusCode != http.StatusNoContent && res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s typing indicator: %w", method, apiError(res.StatusCode, raw))
	}
	return nil
}
