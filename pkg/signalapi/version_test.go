package signalapi

import "testing"

func TestVersionOlder(t *testing.T) {
	tests := []struct {
		v, min    string
		older, ok bool
	}{
		{"0.92", "0.100", true, true}, // numbers, not strings: 92 < 100
		{"0.99", "0.100", true, true},
		{"0.100", "0.100", false, true},
		{"0.101", "0.100", false, true},
		{"1.0", "0.100", false, true},
		{"0.100.1", "0.100", false, true},
		{"0.100", "0.100.1", true, true},
		{"v0.80", "0.100", true, true},
		{"unset", "0.100", false, false},
		{"", "0.100", false, false},
		{"0.100-dev", "0.100", false, false},
		{"0.-1", "0.100", false, false},
	}
	for _, tt := range tests {
		older, ok := VersionOlder(tt.v, tt.min)
		if older != tt.older || ok != tt.ok {
			t.Errorf("VersionOlder(%q, %q) = %v, %v; want %v, %v", tt.v, tt.min, older, ok, tt.older, tt.ok)
		}
	}
}

// Every release the table knows ships a signal-cli the version parser reads;
// the oldest tested release ships one that still receives.
func TestBundledSignalCLI(t *testing.T) {
	for rest, cli := range bundledSignalCLI {
		if _, ok := VersionOlder(cli, MinSignalCLI); !ok {
			t.Errorf("%s ships %q: not a version", rest, cli)
		}
	}
	if old, _ := VersionOlder(BundledSignalCLI(OldestTestedVersion), MinSignalCLI); old || BundledSignalCLI(OldestTestedVersion) == "" {
		t.Errorf("the oldest tested release %s ships signal-cli %q, older than %s", OldestTestedVersion, BundledSignalCLI(OldestTestedVersion), MinSignalCLI)
	}
	if got := BundledSignalCLI("0.99"); got != "0.14.3" {
		t.Errorf("BundledSignalCLI(0.99) = %q; want 0.14.3", got)
	}
	if got := BundledSignalCLI("unset"); got != "" {
		t.Errorf("BundledSignalCLI(unset) = %q; want none", got)
	}
}
