package fields

import (
	"testing"
	"time"
)

// Each check gives "" for a good value and its own words for a bad one.
func TestChecks(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"Positive int 1", Positive("C.N", 1), ""},
		{"Positive int 0", Positive("C.N", 0), "C.N must be > 0"},
		{"Positive int -1", Positive("C.N", -1), "C.N must be > 0"},
		{"Positive int64", Positive("C.B", int64(-5)), "C.B must be > 0"},
		{"Positive duration", Positive("C.T", time.Second), ""},
		{"Positive zero duration", Positive("C.T", time.Duration(0)), "C.T must be > 0"},
		{"Positive float", Positive("C.R", 0.5), ""},
		{"Positive zero float", Positive("C.R", 0.0), "C.R must be > 0"},
		{"NotNegative 0", NotNegative("C.N", 0), ""},
		{"NotNegative 3", NotNegative("C.N", 3), ""},
		{"NotNegative -1", NotNegative("C.N", -1), "C.N must not be negative"},
		{"NotNegative float", NotNegative("C.R", -0.1), "C.R must not be negative"},
		{"Required set", Required("C.URL", "http://x"), ""},
		{"Required empty", Required("C.URL", ""), "C.URL is required"},
		{"That ok", That(true, "C.X is wrong"), ""},
		{"That not ok", That(false, "C.X is wrong"), "C.X is wrong"},
		{"Within none", Within("C.Part", "", ""), ""},
		{"Within no problems at all", Within("C.Part"), ""},
		{"Within one", Within("C.Part", "", "P.A is required"), "C.Part: P.A is required"},
		{"Within several", Within("C.Part", "P.A is required", "", "P.B must be > 0"), "C.Part: P.A is required; P.B must be > 0"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q; want %q", tt.name, tt.got, tt.want)
		}
	}
}

// Check and Missing are nil without problems, and otherwise name who and
// every problem, in order, and nothing for the checks that passed.
func TestJoins(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string // "" for nil
	}{
		{"Check no problems", Check("pipeline"), ""},
		{"Check none", Check("pipeline", "", ""), ""},
		{"Check one", Check("pipeline", "", "Config.Limit must be > 0", ""), "pipeline: Config.Limit must be > 0"},
		{"Check several", Check("pipeline", "Config.Limit must be > 0", "", "Config.QueueDepth must be > 0", "Config.URL is required"),
			"pipeline: Config.Limit must be > 0; Config.QueueDepth must be > 0; Config.URL is required"},
		{"Missing no names", Missing("bot"), ""},
		{"Missing none", Missing("bot", "", ""), ""},
		{"Missing one", Missing("bot", "", "Deps.API"), "bot: Deps.API required"},
		{"Missing several", Missing("bot", "Deps.API", "", "Deps.Store", "Deps.Gate"), "bot: Deps.API, Deps.Store, Deps.Gate required"},
	}
	for _, tt := range tests {
		switch {
		case tt.want == "" && tt.err != nil:
			t.Errorf("%s = %q; want nil", tt.name, tt.err)
		case tt.want != "" && tt.err == nil:
			t.Errorf("%s = nil; want %q", tt.name, tt.want)
		case tt.want != "" && tt.err.Error() != tt.want:
			t.Errorf("%s = %q; want %q", tt.name, tt.err, tt.want)
		}
	}
}
