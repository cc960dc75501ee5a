package telemetry

import (
	"errors"
	"testing"
)

func TestRedactText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The user +4915112345678 is not registered.", "The user REDACTED is not registered."},
		{"dial ws://127.0.0.1:8080/v1/receive/+48500000001: refused", "dial ws://127.0.0.1:8080/v1/receive/REDACTED: refused"},
		{"uuid 1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11 failed", "uuid REDACTED failed"},
		{"group group.UG1waStFZlBXbXN4aW9tTGU5TngyWEY5SE9FNDgzcDZpS2lGajY1aU13ST0= gone", "group REDACTED gone"},
		{"Group not found: Pmpi+EfPWmsxiomLe9Nx2XF9HOE483p6iKiFj65iMwI=", "Group not found: REDACTED"},
		{"send: status 429: rate limited", "send: status 429: rate limited"},
	}
	for _, tt := range tests {
		if got := RedactText(tt.in); got != tt.want {
			t.Errorf("RedactText(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
	if got := RedactErr(errors.New("to +48600000001")); got != "to REDACTED" {
		t.Errorf("RedactErr = %q", got)
	}
}
