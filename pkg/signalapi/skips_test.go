package signalapi_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
)

// Every kind of frame the bot skips moves its own reason of
// signal_bot_frames_skipped_total, each from 0 (every reason is there before
// any traffic); a frame signal-cli could not decrypt is logged with the
// exception's type and message and nothing that names the sender.
func TestSkippedFramesCounted(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	fams := h.Scrape()
	for _, reason := range signalapi.SkipLabels() {
		if got := botest.Value(fams, "signal_bot_frames_skipped_total", map[string]string{"reason": reason}); got != 0 {
			t.Errorf("before any frame, skipped{reason=%q} = %v; want 0", reason, got)
		}
	}
	const from, name = "+48600000077", "Zofia"
	kinds := []struct {
		msg    sim.Message
		reason string
	}{
		{sim.Message{Kind: sim.KindReceipt}, "receipt"},
		{sim.Message{Kind: sim.KindTyping}, "typing"},
		{sim.Message{Kind: sim.KindSync, Text: "!pomoc"}, "owner_direct"}, // owner mode (the default): the account's message to Zofia
		{sim.Message{Kind: sim.KindReaction}, "reaction"},
		{sim.Message{Kind: sim.KindGroupUpdate, Group: "testbot"}, "group_update"},
		{sim.Message{Kind: sim.KindAttachmentOnly}, "no_text"},
		{sim.Message{Kind: sim.KindEdit, Text: "!pomoc"}, "edit"},
		{sim.Message{Kind: sim.KindUndecryptable}, "exception"},
		{sim.Message{Kind: sim.KindUndecryptable, Text: "untrusted"}, "exception"},
		{sim.Message{Text: "dzień dobry"}, "not_command"},
		{sim.Message{Text: "!pomoc", Timestamp: 1765000000000}, ""}, // answered
		{sim.Message{Text: "!pomoc", Timestamp: 1765000000000}, "duplicate"},
	}
	want := map[string]float64{}
	for _, k := range kinds {
		k.msg.From, k.msg.Name = from, name
		if _, err := h.Sim.Deliver(k.msg); err != nil {
			t.Fatal(err)
		}
		if k.reason != "" {
			want[k.reason]++
		}
	}
	h.Sim.DeliverRaw([]byte(`{"envelope":"nope"}`))
	h.Sim.DeliverRaw([]byte(`{"error":"Failed to receive"}`))
	want["undecodable"]++
	want["error"]++
	h.WaitIdle(len(kinds) + 2)
	fams = h.Scrape()
	for _, reason := range signalapi.SkipLabels() {
		if got := botest.Value(fams, "signal_bot_frames_skipped_total", map[string]string{"reason": reason}); got != want[reason] {
			t.Errorf("skipped{reason=%q} = %v; want %v", reason, got, want[reason])
		}
	}
	if n := len(h.Sim.Sent()); n != 1 {
		t.Errorf("%d replies; want 1 (the first !pomoc)", n)
	}
	logs := h.Logs.String()
	for _, line := range []string{
		`msg="frame signal-cli could not decrypt or handle skipped" exception_type=ProtocolInvalidMessageException exception_message="org.signal.libsignal.protocol.InvalidMessageException: invalid Whisper message: decryption failed"`,
		`msg="frame signal-cli could not decrypt or handle skipped" exception_type=UntrustedIdentityException exception_message="Untrusted identity: REDACTED"`,
	} {
		if !strings.Contains(logs, line) {
			t.Errorf("log lacks %s", line)
		}
	}
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "exception") {
			for _, id := range []string{from, sim.UUIDOf(from), name} {
				if strings.Contains(l, id) {
					t.Errorf("exception line names the sender (%q): %s", id, l)
				}
			}
		}
	}
}
