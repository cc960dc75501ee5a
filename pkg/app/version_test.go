package app_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
)

// At start the bot compares /v1/about's version with the oldest release it is
// tested against: an older one gets one warning naming the upgrade section, a
// build from source ("unset") an info line, the tested release neither.
func TestRESTAPIVersionAtStart(t *testing.T) {
	if sim.Version != signalapi.OldestTestedVersion {
		t.Errorf("the simulator reproduces %s, the bot is tested against %s at the oldest: keep them together", sim.Version, signalapi.OldestTestedVersion)
	}
	const warning = "signal-cli-rest-api is older than the oldest release the bot is tested against"
	const unversioned = "signal-cli-rest-api reports no release number"
	tests := []struct {
		version             string
		wantWarn, wantUnset int
	}{
		{"0.92", 1, 0},
		{"0.99", 1, 0},
		{"unset", 0, 1},
		{sim.Version, 0, 0},
		{"0.101", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			h := botest.New(t, sim.Config{Lossless: true, Version: tt.version}, nil)
			h.Start()
			var warns, unset []string
			for _, l := range strings.Split(h.Logs.String(), "\n") {
				switch {
				case strings.Contains(l, warning):
					warns = append(warns, l)
				case strings.Contains(l, unversioned):
					unset = append(unset, l)
				}
			}
			if len(warns) != tt.wantWarn || len(unset) != tt.wantUnset {
				t.Fatalf("version %s: %d warnings %q and %d info lines %q; want %d and %d", tt.version, len(warns), warns, len(unset), unset, tt.wantWarn, tt.wantUnset)
			}
			for _, l := range warns {
				if !strings.Contains(l, "level=WARN") || !strings.Contains(l, "version="+tt.version) || !strings.Contains(l, "docs/operations.md#upgrading-signal-cli-rest-api") {
					t.Errorf("warning %q: want level WARN, the version and the upgrade section", l)
				}
			}
			if tt.version == "0.99" && (len(warns) != 1 || !strings.Contains(warns[0], "signal_cli=0.14.3") || !strings.Contains(warns[0], "drops every incoming message")) {
				t.Errorf("warning for 0.99 %q: want its signal-cli 0.14.3 and why it matters", warns)
			}
			for _, l := range unset {
				if !strings.Contains(l, "level=INFO") {
					t.Errorf("line %q: want level INFO, not a warning", l)
				}
			}
		})
	}
}
