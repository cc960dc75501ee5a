package bot

import (
	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
)

// MaxQuoteBytes bounds the text a reply quotes: Signal's clients show a
// quote as two or three lines of the message it answers, and take the
// reply by the quote's timestamp and author, not its text. A longer text is
// cut on a character boundary and ends with QuoteCut, so a 3 MB message is
// never sent back in the quote of its answer.
const MaxQuoteBytes = 256

// QuoteCut ends a quote cut to MaxQuoteBytes.
const QuoteCut = "…"

// QuoteMode says which replies quote the message that asked (QUOTE_REPLIES).
type QuoteMode int

// The values of QUOTE_REPLIES. The zero value is QuoteOff, so Deps without a
// mode send plain replies.
const (
	QuoteOff    QuoteMode = iota // no reply quotes
	QuoteGroups                  // replies in groups quote; direct replies do not
	QuoteAll                     // every reply quotes
)

// QuoteModeOf reads QUOTE_REPLIES (groups, all, off), which config has
// checked; anything else quotes nothing.
func QuoteModeOf(s string) QuoteMode {
	switch s {
	case "groups":
		return QuoteGroups
	case "all":
		return QuoteAll
	}
	return QuoteOff
}

// quoteOf is the quote a reply to in carries under mode, or nil. In a busy
// group a quote says whom the reply answers; a direct chat has one asker.
func quoteOf(mode QuoteMode, in signalapi.Incoming) *signalapi.Quote {
	if in.Timestamp == 0 { // no message asked: a scheduled post
		return nil
	}
	if mode == QuoteAll || (mode == QuoteGroups && in.GroupID != "") {
		q := in.Quote()
		if len(q.Text) > MaxQuoteBytes {
			q.Text = commands.Truncate(q.Text, MaxQuoteBytes) + QuoteCut
		}
		return q
	}
	return nil
}
