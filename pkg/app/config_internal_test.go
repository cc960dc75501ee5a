package app

import (
	"context"
	"testing"

	"github.com/sethvargo/go-envconfig"

	"signal-bot/pkg/config"
)

// testConfig is the configuration of an empty environment: every value is
// config's default, stated once in its tags, so these tests restate none.
func testConfig(t testing.TB) config.Config {
	t.Helper()
	cfg, err := config.Load(context.Background(), envconfig.MapLookuper(nil))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
