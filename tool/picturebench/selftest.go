package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"signal-bot/pkg/telemetry"
)

// selftest sends text through the bot's /_selftest in the test group and
// returns the frame's timing block.
func selftest(hc *http.Client, base, text string) (telemetry.Block, error) {
	body, _ := json.Marshal(map[string]string{"group": "testbot", "text": text})
	res, err := hc.Post(base+"/_selftest", "application/json", bytes.NewReader(body))
	if err != nil {
		return telemetry.Block{}, fmt.Errorf("POST /_selftest: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return telemetry.Block{}, fmt.Errorf("read /_selftest answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return telemetry.Block{}, fmt.Errorf("POST /_selftest: %s: %s", res.Status, bytes.TrimSpace(raw))
	}
	var b telemetry.Block
	if err := json.Unmarshal(raw, &b); err != nil {
		return telemetry.Block{}, fmt.Errorf("decode /_selftest answer: %w", err)
	}
	return b, nil
}
