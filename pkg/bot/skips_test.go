package bot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"signal-bot/pkg/telemetry"
)

// A frame with signal-cli's exception beside the envelope (the frames of
// pkg/signalapi/testdata/frames, as signal-cli writes them) is skipped,
// counted and logged with the exception's type and message, and nothing in
// the log names the sender: not the number, the uuid nor the name of the
// envelope, nor the identity inside an UntrustedIdentityException's message.
func TestExceptionFrameLogged(t *testing.T) {
	const (
		number = "+4915112345678"
		uuid   = "1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11"
		name   = "Alice"
	)
	tests := []struct {
		file string
		line string // the log line's message and attributes
	}{
		{"exception-undecryptable.json", `msg="frame signal-cli could not decrypt or handle skipped" exception_type=ProtocolInvalidMessageException exception_message="org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed"`},
		{"exception-untrusted.json", `msg="frame signal-cli could not decrypt or handle skipped" exception_type=UntrustedIdentityException exception_message="Untrusted identity: REDACTED"`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("..", "signalapi", "testdata", "frames", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), number) || !strings.Contains(string(raw), uuid) {
				t.Fatalf("%s does not name the sender: the test would prove nothing", tt.file)
			}
			h := newHarness(t, nil)
			got := h.run(t, raw)
			h.check(t, tt.file, got, want{outcome: telemetry.OutcomeIgnored})
			logs := h.logs.String()
			if !strings.Contains(logs, tt.line) {
				t.Errorf("log lacks %s:\n%s", tt.line, logs)
			}
			for _, id := range []string{number, uuid, name} {
				if strings.Contains(logs, id) {
					t.Errorf("log names the sender (%q):\n%s", id, logs)
				}
			}
			if c := h.rec.snapshot(); !equalCounts(c, map[string]int{"skipped/exception": 1}) {
				t.Errorf("counted %v; want one exception skipped", c)
			}
		})
	}
}

// exceptionText keeps what an operator needs and no identity, within its bound.
func TestExceptionText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed", "org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed"},
		{"Untrusted identity: PNI:1e5f7c1a-3b7e-4c55-9a0b-5d1f0e2a7c11", "Untrusted identity: REDACTED"},
		{"Untrusted identity: alice.42", "Untrusted identity: REDACTED"},
		{"No session with +4915112345678.2", "No session with REDACTED.2"},
		{strings.Repeat("ż", 400), strings.Repeat("ż", maxExceptionText/2) + "…"},
	}
	for _, tt := range tests {
		if got := exceptionText(tt.in); got != tt.want {
			t.Errorf("exceptionText(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
