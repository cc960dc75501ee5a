package signalapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Health is GET /v1/health: 204 once the REST server is up. Unlike
// /v1/about, the REST API does not log it and it never asks signal-cli, so it
// suits a probe that runs every few seconds.
func (c *Client) Health(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.cfg.BaseURL+"/v1/health", nil)
	if err != nil {
		return fmt.Errorf("get /v1/health: %w", err)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("get /v1/health: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	if res.StatusCode != http.StatusNoContent && res.StatusCode != http.StatusOK {
		return fmt.Errorf("get /v1/health: %w", apiError(res.StatusCode, body))
	}
	return nil
}
