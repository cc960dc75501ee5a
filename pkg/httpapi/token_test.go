package httpapi

import "testing"

func TestSecretMatches(t *testing.T) {
	s := newSecret("s3cret")
	tests := []struct {
		got  string
		want bool
	}{
		{"s3cret", true},
		{"s3cre", false},
		{"s3cret ", false},
		{"S3CRET", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := s.matches(tt.got); got != tt.want {
			t.Errorf("matches(%q) = %v; want %v", tt.got, got, tt.want)
		}
	}
}
