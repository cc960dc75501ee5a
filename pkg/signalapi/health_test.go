package signalapi_test

import (
	"context"
	"net/http"
	"testing"

	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
)

// Health is the webhook mode's probe: it passes while the REST API is up and
// fails once it is gone.
func TestHealth(t *testing.T) {
	s := sim.New(sim.Config{})
	url, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := signalapi.New(signalapi.TestConfig(url, s.Number()), &http.Client{})
	if err := c.Health(context.Background()); err != nil {
		t.Errorf("Health with the REST API up: %v; want nil", err)
	}
	s.Close()
	if err := c.Health(context.Background()); err == nil {
		t.Error("Health with the REST API gone: nil; want an error")
	}
}
