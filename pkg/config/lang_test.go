package config_test

import (
	"context"
	"slices"
	"testing"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/config"

	"github.com/sethvargo/go-envconfig"
)

// REPLY_LANG accepts exactly the languages pkg/commands has a table for.
func TestReplyLangMatchesTables(t *testing.T) {
	for _, lang := range append(commands.Languages(), "de") {
		_, err := config.Load(context.Background(), envconfig.MapLookuper(map[string]string{"REPLY_LANG": lang}))
		if want := slices.Contains(commands.Languages(), lang); (err == nil) != want {
			t.Errorf("REPLY_LANG=%s: %v; want accepted %v", lang, err, want)
		}
	}
}
