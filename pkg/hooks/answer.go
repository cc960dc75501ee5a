package hooks

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/upstream"
)

// MaxAnswerBytes bounds a hook's answer: a longer one is refused unread
// past the bound (a picture in base64 fits; a larger picture goes by URL).
const MaxAnswerBytes = 4 << 20

// The outcomes of a hook's call, the label of signal_bot_hook_calls.
const (
	OutcomeOK        = "ok"
	OutcomeTimeout   = "timeout"    // no whole answer within the hook's timeout
	OutcomeStatus    = "status"     // an answer other than 2xx (a redirect too)
	OutcomeTooBig    = "too_big"    // an answer over MaxAnswerBytes
	OutcomeBadAnswer = "bad_answer" // not text/plain or the JSON of the contract, or empty
	OutcomePicture   = "picture"    // its picture failed: not fetched, not an image, over the decode budget
	OutcomeError     = "error"      // no answer: the connection failed, or the frame was stopped
)

// Outcomes lists every outcome, for the metric to export each from 0.
func Outcomes() []string {
	return []string{OutcomeOK, OutcomeTimeout, OutcomeStatus, OutcomeTooBig, OutcomeBadAnswer, OutcomePicture, OutcomeError}
}

// Answer is a hook's JSON answer.
type Answer struct {
	Text    string         `json:"text"`
	Picture *AnswerPicture `json:"picture"`
}

// AnswerPicture is a picture of an answer: by URL (fetched under the
// ordinary fetch policy: https, public addresses, UPSTREAM_ALLOW) or whole,
// in standard base64.
type AnswerPicture struct {
	URL    string `json:"url,omitempty"`
	Base64 string `json:"base64,omitempty"`
}

// The failures of a call, each an outcome (outcomeOf).
var (
	errBadAnswer = errors.New("bad answer")
	errPicture   = errors.New("picture failed")
)

// outcomeOf names the outcome of a call that ended with err.
func outcomeOf(err error) string {
	switch {
	case err == nil:
		return OutcomeOK
	case errors.Is(err, errPicture):
		return OutcomePicture
	case errors.Is(err, context.DeadlineExceeded):
		return OutcomeTimeout
	case errors.Is(err, upstream.ErrStatus), errors.Is(err, upstream.ErrForbidden):
		return OutcomeStatus
	case errors.Is(err, upstream.ErrTooBig):
		return OutcomeTooBig
	case errors.Is(err, errBadAnswer):
		return OutcomeBadAnswer
	}
	return OutcomeError
}

// post sends hr and reads a 2xx answer of at most MaxAnswerBytes into an
// Answer. The body is always closed: that ends the call's client span.
func (d Deps) post(hr *http.Request) (Answer, error) {
	res, err := d.Client.Do(hr)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // the method and URL are the hook's, known
		}
		if cerr := hr.Context().Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w (%w)", cerr, err)
		}
		return Answer{}, fmt.Errorf("no answer: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		_, _ = io.CopyN(io.Discard, res.Body, 4<<10)
		return Answer{}, fmt.Errorf("%w %d", upstream.ErrStatus, res.StatusCode)
	}
	if res.ContentLength > MaxAnswerBytes {
		return Answer{}, fmt.Errorf("%w: content-length %d > %d", upstream.ErrTooBig, res.ContentLength, MaxAnswerBytes)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxAnswerBytes+1))
	if err != nil {
		if cerr := hr.Context().Err(); cerr != nil {
			return Answer{}, fmt.Errorf("read the answer: %w (%w)", cerr, err)
		}
		return Answer{}, fmt.Errorf("read the answer: %w", err)
	}
	if len(body) > MaxAnswerBytes {
		return Answer{}, fmt.Errorf("%w: more than %d bytes", upstream.ErrTooBig, MaxAnswerBytes)
	}
	return parseAnswer(res.Header.Get("Content-Type"), body)
}

// parseAnswer reads body by its type: text/plain is the reply's text,
// application/json an Answer. Anything else, and an answer with neither
// text nor picture, or a text that starts with "!", is errBadAnswer.
func parseAnswer(contentType string, body []byte) (Answer, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return Answer{}, fmt.Errorf("%w: content type %q", errBadAnswer, commands.Truncate(contentType, 64))
	}
	var a Answer
	switch mt {
	case "text/plain":
		a.Text = string(body)
	case "application/json":
		if err := json.Unmarshal(body, &a); err != nil {
			return Answer{}, fmt.Errorf("%w: %w", errBadAnswer, err)
		}
	default:
		return Answer{}, fmt.Errorf("%w: content type %q, not text/plain or application/json", errBadAnswer, commands.Truncate(mt, 64))
	}
	a.Text = strings.TrimSpace(a.Text)
	switch p := a.Picture; {
	case !utf8.ValidString(a.Text):
		return Answer{}, fmt.Errorf("%w: text not UTF-8", errBadAnswer)
	case p != nil && (p.URL == "") == (p.Base64 == ""):
		return Answer{}, fmt.Errorf("%w: a picture needs url or base64, one of them", errBadAnswer)
	case a.Text == "" && p == nil:
		return Answer{}, fmt.Errorf("%w: no text and no picture", errBadAnswer)
	case strings.HasPrefix(a.Text, "!"):
		// No text the bot sends starts with a command: in owner mode an
		// echo the bot does not recognise as its own would be answered.
		return Answer{}, fmt.Errorf("%w: text starts with !, which would read as a command", errBadAnswer)
	}
	return a, nil
}

// reply readies a's picture, if any, and cuts its text under Signal's limit.
func (d Deps) reply(ctx context.Context, h Hook, a Answer) (commands.Reply, error) {
	r := commands.Reply{Text: commands.Truncate(a.Text, commands.MaxReplyBytes-1)}
	if a.Picture == nil {
		return r, nil
	}
	ctx, cancel := context.WithTimeout(ctx, d.PictureTimeout)
	defer cancel()
	var pic commands.Picture
	var err error
	if a.Picture.URL != "" {
		pic, err = d.Pictures.FromURL(ctx, h.Name, a.Picture.URL)
	} else {
		var data []byte
		if data, err = base64.StdEncoding.DecodeString(a.Picture.Base64); err != nil {
			return commands.Reply{}, fmt.Errorf("%w: %w: base64: %w", errPicture, errBadAnswer, err)
		}
		pic, err = d.Pictures.FromBytes(ctx, h.Name, data)
	}
	if err != nil {
		return commands.Reply{}, fmt.Errorf("%w: %w", errPicture, err)
	}
	r.Pictures = []commands.Picture{pic}
	return r, nil
}
