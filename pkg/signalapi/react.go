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

// React sends emoji as a reaction on the message sent at targetTimestamp by
// targetAuthor (a number or uuid), in the chat of recipient (a number, uuid
// or group.… id): POST /v1/reactions/<number>, answered 204. Signal
// delivers it as a message, and counts it like one.
func (c *Client) React(ctx context.Context, recipient, emoji, targetAuthor string, targetTimestamp int64) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	body, err := json.Marshal(struct {
		Recipient    string `json:"recipient"`
		Reaction     string `json:"reaction"`
		TargetAuthor string `json:"target_author"`
		Timestamp    int64  `json:"timestamp"`
	}{recipient, emoji, targetAuthor, targetTimestamp})
	if err != nil {
		return fmt.Errorf("reaction: %w", err)
	}
	path := "/v1/reactions/" + url.PathEscape(c.cfg.Number)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("reaction: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("reaction: %w", err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if res.StatusCode != http.StatusNoContent && res.StatusCode != http.StatusOK {
		return fmt.Errorf("reaction: %w", apiError(res.StatusCode, raw))
	}
	return nil
}
