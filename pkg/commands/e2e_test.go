package commands_test

import (
	"strings"
	"testing"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// Each command in a direct chat and in a group, through the simulator: the
// reply's recipient, number, text (under 2,000 bytes) and picture.
func TestEachCommandInGroupAndDirect(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	// A camera's photo, fetched, decoded, shrunk and sent: the whole picture
	// path once, where the other tests' small pictures are sent as they come.
	h.UsePictures(botest.FullSize, botest.FullSize*3/4)
	h.Start()
	tests := []struct {
		text     string
		wantText string // a substring
		wantMIME string // "" when no picture
		minBytes int
	}{
		{"!pomoc", "!kot — losowy kot z Wikimedia Commons (co 30 s)", "", 0},
		{"!help", "Komendy w tym czacie:", "", 0},
		{"!ja", "!pomoc — 2 razy", "", 0},
		{"!cat", "🐱", "image/", 10_000},
		{"!kot", "🐈", "image/", 10_000},
		{"!nieznana", "Nie znam komendy !nieznana", "", 0},
	}
	// Cooldowns are per user, so each chat gets its own sender.
	for _, chat := range []struct{ name, from, group, recipient string }{
		{"direct", botest.Alice, "", botest.Alice},
		{"group", botest.Bob, "testbot", botest.TestGroupRecipient()},
	} {
		t.Run(chat.name, func(t *testing.T) {
			h.Sim.ClearSent()
			for i, tt := range tests {
				h.Say(chat.from, chat.group, tt.text)
				got := h.WaitSent(i + 1)[i]
				if len(got.Recipients) != 1 || got.Recipients[0] != chat.recipient {
					t.Errorf("%s: recipients = %q; want [%s]", tt.text, got.Recipients, chat.recipient)
				}
				if got.Number != h.Sim.Number() {
					t.Errorf("%s: number = %q; want the bot's %q", tt.text, got.Number, h.Sim.Number())
				}
				if !strings.Contains(got.Message, tt.wantText) {
					t.Errorf("%s: message = %q; want it to contain %q", tt.text, got.Message, tt.wantText)
				}
				if len(got.Message) >= 2000 {
					t.Errorf("%s: message of %d bytes; want < 2000", tt.text, len(got.Message))
				}
				switch {
				case tt.wantMIME == "" && len(got.Attachments) != 0:
					t.Errorf("%s: %d attachments; want none", tt.text, len(got.Attachments))
				case tt.wantMIME != "" && (len(got.Attachments) != 1 || !strings.HasPrefix(got.Attachments[0].MIME, tt.wantMIME) || got.Attachments[0].Size < tt.minBytes || got.Attachments[0].Width == 0):
					t.Errorf("%s: attachments = %+v; want one %s* of ≥ %d bytes", tt.text, got.Attachments, tt.wantMIME, tt.minBytes)
				}
			}
		})
	}
}
