package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// keyPaths lists every object key of the JSON value raw, with its path, in the order
// written: the shape of a frame, whatever its values.
func keyPaths(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var out, stack []string
	type level struct{ object, wantKey bool }
	var levels []level
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		top := len(levels) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				levels = append(levels, level{object: d == '{', wantKey: d == '{'})
			case '}', ']':
				levels = levels[:top]
				if d == '}' && len(stack) > 0 && len(stack) > len(levels)-1 {
					stack = stack[:len(levels)]
				}
				if len(levels) > 0 && levels[len(levels)-1].object {
					levels[len(levels)-1].wantKey = true
				}
			}
			continue
		}
		if top >= 0 && levels[top].object && levels[top].wantKey {
			key := tok.(string)
			stack = append(stack[:top], key)
			out = append(out, strings.Join(stack, "."))
			levels[top].wantKey = false
			continue
		}
		if top >= 0 && levels[top].object {
			levels[top].wantKey = true
		}
	}
}

// The kinds that are no text come out of the simulator in the shape of signal-cli's
// frames in pkg/signalapi/testdata/frames (read from its records): the same keys, nested
// the same way, in the same order.
func TestKindShapesMatchSignalCLI(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("%2B48500000001")
	tests := []struct {
		file string
		msg  Message
	}{
		{"poll-create.json", Message{Kind: KindPollCreate, Text: "!pomoc", Options: []string{"!pomoc", "!kot"}}},
		{"poll-vote.json", Message{Kind: KindPollVote, Target: 42}},
		{"poll-terminate.json", Message{Kind: KindPollTerminate, Target: 42}},
		{"pin.json", Message{Kind: KindPin, Target: 42}},
		{"unpin.json", Message{Kind: KindUnpin, Target: 42}},
		{"admin-delete.json", Message{Kind: KindAdminDelete, Target: 42, TargetAuthor: "+48111"}},
		{"remote-delete.json", Message{Kind: KindRemoteDelete, Target: 42}},
		{"story-reply.json", Message{Kind: KindStoryReply, Text: "!pomoc", Target: 42}},
		{"voice-note.json", Message{Kind: KindVoiceNote, Text: "!pomoc"}},
		{"edit.json", Message{Kind: KindEdit, Text: "!pomoc", Target: 42}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("..", "signalapi", "testdata", "frames", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			m := tt.msg
			m.From, m.Name, m.Group = "+48111", "Alice", "testbot"
			if _, err := h.sim.Deliver(m); err != nil {
				t.Fatal(err)
			}
			got := readRaw(t, conn)
			g, w := keyPaths(t, got), keyPaths(t, want)
			if !slices.Contains(w, "envelope.account") && !slices.Contains(w, "account") || !slices.ContainsFunc(w, func(p string) bool { return strings.HasSuffix(p, ".groupInfo.groupId") }) {
				t.Fatalf("keyPaths(%s) = %v: not the frame's keys", tt.file, w)
			}
			if !slices.Equal(g, w) {
				t.Errorf("simulator's frame:\n%s\nkeys %v\nsignal-cli's:\n%s\nkeys %v", got, g, want, w)
			}
		})
	}
}
