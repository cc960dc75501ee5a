package upstream_test

import (
	"net/http"
	"testing"

	"go.uber.org/goleak"

	"signal-bot/pkg/fakeup"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

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
