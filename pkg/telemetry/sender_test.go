package telemetry

import "testing"

func TestSenderHash(t *testing.T) {
	tests := []struct {
		name   string
		key    string
		sender string
		want   string
	}{
		{name: "known vector", key: "k", sender: "+4912345678", want: "f789ce9001b64d24"},
		{name: "empty sender", key: "k", sender: "", want: SenderHash([]byte("k"), "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SenderHash([]byte(tt.key), tt.sender)
			if got != tt.want {
				t.Errorf("SenderHash(%q, %q) = %q; want %q", tt.key, tt.sender, got, tt.want)
			}
			if len(got) != 16 {
				t.Errorf("len(SenderHash) = %d; want 16", len(got))
			}
		})
	}
	if a, b := SenderHash([]byte("k1"), "+4912345678"), SenderHash([]byte("k2"), "+4912345678"); a == b {
		t.Errorf("SenderHash is the same under two keys: %q", a)
	}
}
