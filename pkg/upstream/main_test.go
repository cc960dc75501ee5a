package upstream_test

import (
	"net/http"
	"testing"

	"go.uber.org/goleak"

	"signal-bot/pkg/fakeup"
	"signal-bot/pkg/upstream"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// newCatAPI is a client of the fake's Cat API: upstream.TestCatAPI, changed by set.
func newCatAPI(t *testing.T, url string, hc *http.Client, set func(*upstream.CatAPIConfig)) *upstream.CatAPI {
	t.Helper()
	cfg := upstream.TestCatAPI(url)
	if set != nil {
		set(&cfg)
	}
	c, err := upstream.NewCatAPI(hc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newCommons is a client of the fake's Commons: upstream.TestCommons, changed by set.
func newCommons(t *testing.T, url string, hc *http.Client, set func(*upstream.CommonsConfig)) *upstream.Commons {
	t.Helper()
	cfg := upstream.TestCommons(url)
	if set != nil {
		set(&cfg)
	}
	return upstream.NewCommons(hc, cfg)
}

// startFake runs a fake upstream on loopback and returns it with a client
// whose idle connections are closed when the test ends.
func startFake(t *testing.T, cfg fakeup.Config) (*fakeup.Server, *http.Client) {
	t.Helper()
	s := fakeup.New(cfg)
	if _, err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("start fake: %v", err)
	}
	tr := &http.Transport{}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		if err := s.Close(); err != nil {
			t.Errorf("close fake: %v", err)
		}
	})
	return s, &http.Client{Transport: tr}
}
