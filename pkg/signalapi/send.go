package signalapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Outgoing is one reply: text, images, or both.
type Outgoing struct {
	Recipient   string // +48…, a UUID, or group.…
	Text        string
	Attachments []string // data URIs; see DataURI
	Quote       *Quote   // nil: the reply quotes nothing
	// NotifySelf is the send's notify_self, always written: true for a reply
	// in Note-to-Self, so the account's phone shows it as a new message
	// rather than as a sent one; false everywhere else. The REST API assumes
	// true when the field is absent (json-rpc mode, "for backwards
	// compatibility"), and signal-cli's --notify-self then makes every group
	// reply arrive on the account's own devices as a notifying message.
	NotifySelf bool
}

// Quote is the message a reply quotes (quote_timestamp, quote_author,
// quote_message of /v2/send; docs/wire-format.md §2).
type Quote struct {
	Timestamp int64  // the quoted message's envelope timestamp
	Author    string // its sender: the number, or the uuid when the number is hidden
	Text      string // its text, shown by clients that do not have the message
	// Mentions are the @mentions in Text (quote_mentions), so that the quote
	// shows each as a name, not as its bare placeholder (U+FFFC).
	Mentions []Mentioned
}

// DataURI encodes an attachment the way /v2/send takes it, with the file name
// the recipient sees.
func DataURI(mime, filename string, data []byte) string {
	return "data:" + mime + ";filename=" + filename + ";base64," + base64.StdEncoding.EncodeToString(data)
}

// SendResult is a 201 answer: the message's timestamp (the target for quotes
// and reactions) and any recipients that failed while others succeeded.
type SendResult struct {
	Timestamp int64
	Failed    []RecipientError
	// AnswerErr is why a 201's body could not be read or parsed (cut short,
	// not JSON): the REST API said the message went, so it is a send, not a
	// failure, and it is not retried; Timestamp and Failed are then unknown.
	AnswerErr error
}

// RecipientError is one failed recipient of the newer 201 array shape (the
// REST API's SendMessageError): who, by number, uuid or username, each
// left out when unknown, and signal-cli's reason (recipients.go).
type RecipientError struct {
	Number   string `json:"number"`
	UUID     string `json:"uuid"`
	Username string `json:"username"`
	Reason   string `json:"reason"`
}

type sendBody struct {
	Number      string   `json:"number"`
	Recipients  []string `json:"recipients"`
	Message     string   `json:"message"`
	Attachments []string `json:"base64_attachments,omitempty"`
	// The quote: signal-cli reads quote-author and quote-message only with
	// quote-timestamp, so the three go together or not at all.
	QuoteTimestamp *int64        `json:"quote_timestamp,omitempty"`
	QuoteAuthor    *string       `json:"quote_author,omitempty"`
	QuoteMessage   *string       `json:"quote_message,omitempty"`
	QuoteMentions  []sendMention `json:"quote_mentions,omitempty"`
	NotifySelf     bool          `json:"notify_self"` // never left out: absent means true
}

// sendMention is one mention of /v2/send (the REST API's MessageMention): the
// placeholder at Start, Length UTF-16 code units, stands for Author, a uuid or
// a number.
type sendMention struct {
	Start  int    `json:"start"`
	Length int    `json:"length"`
	Author string `json:"author"`
}

// sendMentions are ms as /v2/send takes them: the author by uuid, else by
// number, as for quote_author.
func sendMentions(ms []Mentioned) []sendMention {
	if len(ms) == 0 {
		return nil
	}
	out := make([]sendMention, 0, len(ms))
	for _, m := range ms {
		author := m.UUID
		if author == "" {
			author = m.Number
		}
		out = append(out, sendMention{Start: m.Start, Length: m.Length, Author: author})
	}
	return out
}

// bodyOf is the /v2/send body of out from account number.
func bodyOf(number string, out Outgoing) sendBody {
	b := sendBody{Number: number, Recipients: []string{out.Recipient}, Message: out.Text, Attachments: out.Attachments, NotifySelf: out.NotifySelf}
	if q := out.Quote; q != nil {
		b.QuoteTimestamp, b.QuoteAuthor, b.QuoteMessage = &q.Timestamp, &q.Author, &q.Text
		b.QuoteMentions = sendMentions(q.Mentions)
	}
	return b
}

// sendRetries are the waits before the retries of a send that certainly did
// not reach signal-cli (connection refused, or the empty-bodied 500 of a REST
// API whose daemon link is down). Anything else is never retried: a timeout or
// a 429 may already have been delivered.
var sendRetries = [...]time.Duration{300 * time.Millisecond, time.Second}

// Send posts one message with POST /v2/send.
func (c *Client) Send(ctx context.Context, out Outgoing) (SendResult, error) {
	body, err := json.Marshal(bodyOf(c.cfg.Number, out))
	if err != nil {
		return SendResult{}, fmt.Errorf("send: encode: %w", err)
	}
	for attempt := 0; ; attempt++ {
		res, err := c.sendOnce(ctx, body)
		if err == nil || attempt >= len(sendRetries) || !neverDelivered(err) {
			return res, err
		}
		select {
		case <-ctx.Done():
			return SendResult{}, fmt.Errorf("send: %w (after %v)", ctx.Err(), err)
		case <-time.After(sendRetries[attempt]):
		}
	}
}

func neverDelivered(err error) bool {
	var op *net.OpError
	return errors.Is(err, errEmpty500) || (errors.As(err, &op) && op.Op == "dial")
}

func (c *Client) sendOnce(ctx context.Context, body []byte) (SendResult, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.SendTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.cfg.BaseURL+"/v2/send", bytes.NewReader(body))
	if err != nil {
		return SendResult{}, fmt.Errorf("send: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.hc.Do(req)
	if err != nil {
		return SendResult{}, fmt.Errorf("send: %w", err)
	}
	defer res.Body.Close()
	rb, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode == http.StatusCreated || res.StatusCode == http.StatusOK {
		if err != nil { // the status said sent: what follows it does not change that
			return SendResult{AnswerErr: fmt.Errorf("read answer: %w", err)}, nil
		}
		r, err := decodeSendResult(rb)
		if err != nil {
			return SendResult{AnswerErr: err}, nil
		}
		return r, nil
	}
	if err != nil {
		return SendResult{}, fmt.Errorf("send: read answer: %w", err)
	}
	e := apiError(res.StatusCode, rb)
	e.RetryAfter = retryAfter(res.Header.Get("Retry-After"), time.Now())
	return SendResult{}, fmt.Errorf("send: %w", e)
}

// decodeSendResult reads both 201 shapes: {"timestamp":"…"} (releases up to
// 0.100) and [{"timestamp":"…","errors":{"recipients":[…]}}] (newer).
func decodeSendResult(b []byte) (SendResult, error) {
	type one struct {
		Timestamp json.RawMessage `json:"timestamp"`
		Errors    struct {
			Recipients []RecipientError `json:"recipients"`
		} `json:"errors"`
	}
	var items []one
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return SendResult{}, nil
	case b[0] == '[':
		if err := json.Unmarshal(b, &items); err != nil {
			return SendResult{}, fmt.Errorf("decode answer: %w", err)
		}
	default:
		var o one
		if err := json.Unmarshal(b, &o); err != nil {
			return SendResult{}, fmt.Errorf("decode answer: %w", err)
		}
		items = []one{o}
	}
	var r SendResult
	for _, it := range items {
		if ts, err := parseTimestamp(it.Timestamp); err == nil && ts > r.Timestamp {
			r.Timestamp = ts
		}
		r.Failed = append(r.Failed, it.Errors.Recipients...)
	}
	return r, nil
}

func parseTimestamp(raw json.RawMessage) (int64, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strconv.ParseInt(s, 10, 64)
	}
	var n int64
	err := json.Unmarshal(raw, &n)
	return n, err
}
