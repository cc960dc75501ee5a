package sim

import (
	"context"
	"time"
)

// Sent is one POST /v2/send the simulator accepted (answered 201).
type Sent struct {
	Number         string           `json:"number"`
	Recipients     []string         `json:"recipients"`                // as requested, including the hidden "recipient"
	Group          string           `json:"group,omitempty"`           // the group's alias, or its internal id if it has none
	Message        string           `json:"message"`                   // as requested (before any text_mode styling)
	Attachments    []SentAttachment `json:"attachments"`               // decoded base64_attachments
	TextMode       string           `json:"text_mode,omitempty"`       // "normal", "styled" or "" (not given)
	QuoteTimestamp int64            `json:"quote_timestamp,omitempty"` // the quoted message; 0: no quote
	QuoteAuthor    string           `json:"quote_author,omitempty"`    // its author, a number or uuid, with QuoteTimestamp only
	QuoteMessage   string           `json:"quote_message,omitempty"`   // its text as the request gave it, with QuoteTimestamp only
	QuoteMentions  []SentMention    `json:"quote_mentions,omitempty"`  // the mentions in QuoteMessage, with QuoteTimestamp only
	EditTimestamp  int64            `json:"edit_timestamp,omitempty"`
	NotifySelf     *bool            `json:"notify_self,omitempty"` // as requested; nil: not given
	// NotifiedSelf is what the REST API made of notify_self: true when it was absent (its
	// default, "for backwards compatibility") or true, and signal-cli then sent with
	// --notify-self, so the account's own devices got the message as a notifying one.
	NotifiedSelf bool      `json:"notified_self"`
	Timestamp    int64     `json:"timestamp"` // the timestamp of the 201 answer
	At           time.Time `json:"at"`        // when the simulator answered
}

// SentMention is one of a send's quote_mentions: the placeholder (U+FFFC) at
// Start, Length UTF-16 code units of the quoted text, stands for Author, a
// number or a uuid.
type SentMention struct {
	Start  int64  `json:"start"`
	Length int64  `json:"length"`
	Author string `json:"author"`
}

// SentAttachment describes one decoded attachment of a send. MIME is sniffed from the
// content, as signal-cli does, not taken from the data URI.
type SentAttachment struct {
	MIME         string `json:"mime"`
	DeclaredMIME string `json:"declared_mime,omitempty"` // the data URI's type, if any
	Filename     string `json:"filename,omitempty"`      // the data URI's filename=, if any
	Size         int    `json:"size"`                    // bytes after base64 decoding
	Width        int    `json:"width,omitempty"`         // pixels, for images Go can decode
	Height       int    `json:"height,omitempty"`
	SHA256       string `json:"sha256"` // hex digest of the bytes
}

// record stores an accepted send and wakes WaitSent callers.
func (s *Sim) record(x Sent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, x)
	close(s.sentChanged)
	s.sentChanged = make(chan struct{})
}

// Sent returns a copy of the sends recorded since New or the last ClearSent, oldest first.
func (s *Sim) Sent() []Sent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Sent{}, s.sent...)
}

// WaitSent blocks until at least n sends are recorded, then returns them all; or returns the
// sends so far and ctx's error when ctx ends first.
func (s *Sim) WaitSent(ctx context.Context, n int) ([]Sent, error) {
	for {
		s.mu.Lock()
		got, changed := append([]Sent{}, s.sent...), s.sentChanged
		s.mu.Unlock()
		if len(got) >= n {
			return got, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return got, ctx.Err()
		}
	}
}

// SentAfter blocks until more than n sends are recorded, then returns a copy of those after
// the first n only, so a reader that follows the sends one by one copies each once; or
// returns nil and ctx's error when ctx ends first. After ClearSent the count starts again
// from zero.
func (s *Sim) SentAfter(ctx context.Context, n int) ([]Sent, error) {
	for {
		s.mu.Lock()
		var got []Sent
		if len(s.sent) > n {
			got = append([]Sent(nil), s.sent[n:]...)
		}
		changed := s.sentChanged
		s.mu.Unlock()
		if got != nil {
			return got, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// ClearSent forgets the recorded sends.
func (s *Sim) ClearSent() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = nil
	close(s.sentChanged)
	s.sentChanged = make(chan struct{})
}
