package signalapi

import (
	"strconv"
	"strings"
)

// OldestTestedVersion is the oldest signal-cli-rest-api release the bot is
// tested against: the image compose.yaml pins (bbernhard/signal-cli-rest-api),
// the release docs/wire-format.md describes and pkg/sim reproduces
// (sim.Version). Raise it with the pin when a newer release is adopted.
const OldestTestedVersion = "0.100"

// MinSignalCLI is the oldest signal-cli that still receives: on 2026-06-10
// a change of Signal's server made every older signal-cli drop all incoming
// messages (sealed-sender ones), while its sends still went; 0.14.5 fixed
// it ("Receiving unidentified sender messages after signal server change").
const MinSignalCLI = "0.14.5"

// bundledSignalCLI is the signal-cli each REST API release ships (its
// Dockerfile's SIGNAL_CLI_VERSION). /v1/about does not report signal-cli's
// version, so the release stands for it.
var bundledSignalCLI = map[string]string{
	"0.94": "0.13.18", "0.95": "0.13.20", "0.96": "0.13.22", "0.97": "0.13.23",
	"0.98": "0.14.1", "0.99": "0.14.3", "0.100": "0.14.5",
}

// BundledSignalCLI is the signal-cli a REST API release ships, "" for a
// release not in the table (older than 0.94, newer than the newest tested,
// or a build from source).
func BundledSignalCLI(restVersion string) string {
	return bundledSignalCLI[strings.TrimPrefix(strings.TrimSpace(restVersion), "v")]
}

// VersionUnset is what /v1/about reports for a REST API built from source
// without a version.
const VersionUnset = "unset"

// VersionOlder tells whether the release v is older than min, both dotted
// numbers such as "0.92" and "0.100" (compared part by part, as numbers). It
// reports ok false when either is not such a number ("unset", "", "dev").
func VersionOlder(v, min string) (older, ok bool) {
	a, okA := versionParts(v)
	b, okB := versionParts(min)
	if !okA || !okB {
		return false, false
	}
	for i := range max(len(a), len(b)) {
		x, y := part(a, i), part(b, i)
		if x != y {
			return x < y, true
		}
	}
	return false, true
}

// versionParts splits "0.100" into [0 100]; a leading "v" is allowed.
func versionParts(v string) ([]int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if v == "" {
		return nil, false
	}
	fields := strings.Split(v, ".")
	parts := make([]int, len(fields))
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, false
		}
		parts[i] = n
	}
	return parts, true
}

// part is parts[i], or 0 past the end ("0.100" is "0.100.0").
func part(parts []int, i int) int {
	if i < len(parts) {
		return parts[i]
	}
	return 0
}
