package bot_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"signal-bot/pkg/bot"
	"signal-bot/pkg/botest"
	"signal-bot/pkg/signalid"
	"signal-bot/pkg/sim"
)

// A reply in a group quotes the message that asked, by its timestamp and its
// author (the uuid, which signal-cli resolves without a lookup; the number
// only in a frame without one); a direct reply
// does not under the default QUOTE_REPLIES=groups; QUOTE_REPLIES=off quotes
// nothing and all quotes direct replies too.
func TestQuotedReplies(t *testing.T) {
	t.Parallel()
	hidden := sim.UUIDOf("+48600000077")
	tests := []struct {
		name       string
		mode       string // "": the default
		msg        sim.Message
		wantAuthor string // "": no quote
	}{
		{"group, default", "", sim.Message{From: botest.Alice, Group: "testbot", Text: "!pomoc"}, sim.UUIDOf(botest.Alice)},
		{"group, hidden number", "", sim.Message{UUID: hidden, Group: "testbot", Text: "!pomoc"}, hidden},
		{"direct, default", "", sim.Message{From: botest.Alice, Text: "!pomoc"}, ""},
		{"group, off", "off", sim.Message{From: botest.Alice, Group: "testbot", Text: "!pomoc"}, ""},
		{"direct, all", "all", sim.Message{From: botest.Alice, Text: "!pomoc"}, sim.UUIDOf(botest.Alice)},
		{"direct hidden number, all", "all", sim.Message{UUID: hidden, Text: "!ja"}, hidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			if tt.mode != "" {
				env["QUOTE_REPLIES"] = tt.mode
			}
			h := botest.New(t, sim.Config{Lossless: true}, env)
			h.Start()
			ts, err := h.Sim.Deliver(tt.msg)
			if err != nil {
				t.Fatal(err)
			}
			got := h.WaitSent(1)[0]
			if tt.wantAuthor == "" {
				if got.QuoteTimestamp != 0 || got.QuoteAuthor != "" || got.QuoteMessage != "" {
					t.Errorf("quote = %d %q %q; want none", got.QuoteTimestamp, got.QuoteAuthor, got.QuoteMessage)
				}
				return
			}
			if got.QuoteTimestamp != ts || got.QuoteAuthor != tt.wantAuthor || got.QuoteMessage != tt.msg.Text {
				t.Errorf("quote = %d %q %q; want %d %q %q", got.QuoteTimestamp, got.QuoteAuthor, got.QuoteMessage, ts, tt.wantAuthor, tt.msg.Text)
			}
		})
	}
}

// A picture reply quotes too, and stays one send.
func TestQuotedPictureReply(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, map[string]string{"TYPING": "off"})
	h.Start()
	ts, err := h.Sim.Deliver(sim.Message{From: botest.Bob, Group: "testbot", Text: "!kot"})
	if err != nil {
		t.Fatal(err)
	}
	got := h.WaitSent(1)[0]
	if len(got.Attachments) != 1 || got.QuoteTimestamp != ts || got.QuoteAuthor != sim.UUIDOf(botest.Bob) {
		t.Errorf("send = %d attachments, quote %d %q; want a picture quoting %d %q", len(got.Attachments), got.QuoteTimestamp, got.QuoteAuthor, ts, sim.UUIDOf(botest.Bob))
	}
	h.WaitIdle(1)
	if n := len(h.Sim.Sent()); n != 1 {
		t.Errorf("%d sends; want 1", n)
	}
}

// A /_selftest reply in the test group quotes its synthetic frame by the
// identity's uuid, never by SELFTEST_SENDER's made-up number, which signal-cli
// would look up at Signal and refuse as not registered.
func TestSelftestReplyQuotesByUUID(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	h.Selftest("!pomoc")
	got := h.WaitSent(1)[0]
	if got.QuoteTimestamp == 0 || !signalid.IsUUID(got.QuoteAuthor) {
		t.Errorf("quote = %d %q; want the selftest frame's, by uuid", got.QuoteTimestamp, got.QuoteAuthor)
	}
}

// A long message's reply quotes at most bot.MaxQuoteBytes of it, cut on a
// character boundary and marked: a 1 MB "!pomoc żżż…" (two bytes a
// character, so a byte cut would split one) is not sent back whole.
func TestQuoteBounded(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	text := "!pomoc " + strings.Repeat("ż", 500_000)
	h.Say(botest.Alice, "testbot", text)
	q := h.WaitSent(1)[0].QuoteMessage
	if len(q) > bot.MaxQuoteBytes+len(bot.QuoteCut) || !utf8.ValidString(q) ||
		!strings.HasSuffix(q, bot.QuoteCut) || !strings.HasPrefix(text, strings.TrimSuffix(q, bot.QuoteCut)) {
		t.Errorf("quote of a %d-byte message: %d bytes, valid UTF-8 %v, %.40q…; want at most %d, a prefix cut on a character, ending %q",
			len(text), len(q), utf8.ValidString(q), q, bot.MaxQuoteBytes+len(bot.QuoteCut), bot.QuoteCut)
	}
}
