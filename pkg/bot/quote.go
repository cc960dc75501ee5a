package bot

import "signal-bot/pkg/signalapi"

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
		return in.Quote()
	}
	return nil
}
