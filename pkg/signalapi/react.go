package signalapi

import (
	"context"
	"net/http"
	"net/url"
)

// React sends emoji as a reaction on the message sent at targetTimestamp by
// targetAuthor (a number or uuid), in the chat of recipient (a number, uuid
// or group.… id): POST /v1/reactions/<number>, answered 204. Signal
// delivers it as a message, and counts it like one.
func (c *Client) React(ctx context.Context, recipient, emoji, targetAuthor string, targetTimestamp int64) error {
	return c.callJSON(ctx, "reaction", http.MethodPost, "/v1/reactions/"+url.PathEscape(c.cfg.Number), struct {
		Recipient    string `json:"recipient"`
		Reaction     string `json:"reaction"`
		TargetAuthor string `json:"target_author"`
		Timestamp    int64  `json:"timestamp"`
	}{recipient, emoji, targetAuthor, targetTimestamp})
}
