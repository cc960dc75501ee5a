package signalid

import "testing"

func TestIsUUID(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11", true},
		{"1E5F7C1A-3B7E-4C55-9A0B-5D1F0E2A7C11", true},
		{"1e5f7c1a3b7e4c559a0b5d1f0e2a7c11", false}, // no dashes: the REST API's other form
		{"1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c1", false},
		{"1e5f7c1a-3b7e-4c55-9a0b_5d1f0e2a7c11", false},
		{"ge5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11", false},
		{"+48500000001", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsUUID(tt.s); got != tt.want {
			t.Errorf("IsUUID(%q) = %v; want %v", tt.s, got, tt.want)
		}
	}
}
