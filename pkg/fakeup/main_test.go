package fakeup_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"go.uber.org/goleak"

	"signal-bot/pkg/fakeup"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start runs a fake on loopback for the test and returns it with a client
// whose idle connections are closed when the test ends.
func start(t *testing.T, cfg fakeup.Config) (*fakeup.Server, *http.Client) {
	t.Helper()
	s := fakeup.New(cfg)
	if _, err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("Start: %v", err)
	}
	tr := &http.Transport{}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s, &http.Client{Transport: tr}
}

// fetch GETs url with a 10 s safety timeout and returns status, headers and body.
func fetch(t *testing.T, hc *http.Client, url string, hdr http.Header) (int, http.Header, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	res, err := hc.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	return res.StatusCode, res.Header, body
}
