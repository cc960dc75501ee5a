package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// trivialSend is the yardstick: the least a client can do to answer n
// messages, workers POSTs of one text /v2/send at a time, with nothing
// decoded, traced or stored. It returns how long the n sends took.
func trivialSend(ctx context.Context, base, number string, n, workers int) (time.Duration, error) {
	body, err := json.Marshal(map[string]any{
		"number": number, "recipients": []string{"+48600000000"}, "message": "Komendy: !pomoc",
	})
	if err != nil {
		return 0, err
	}
	tr := &http.Transport{MaxIdleConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	cl := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	start := time.Now()
	for range workers {
		wg.Go(func() {
			for next.Add(1) <= int64(n) && ctx.Err() == nil {
				if err := postSend(ctx, cl, base+"/v2/send", body); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return took, fmt.Errorf("trivial sender: %w", err)
	}
	return took, ctx.Err()
}

func postSend(ctx context.Context, cl *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := cl.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	if res.StatusCode != http.StatusCreated {
		return fmt.Errorf("POST /v2/send: %s", res.Status)
	}
	return nil
}
