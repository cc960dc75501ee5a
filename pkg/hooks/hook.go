// Package hooks is the commands of COMMANDS_FILE that call the operator's
// own service: for "!pogoda Kraków" a POST of JSON to the hook's URL, signed,
// with the frame's trace context, and its answer (text, a picture, or both)
// as the reply. Every failure is the short apology, counted by outcome and
// returned as the command's error, which the bot logs once.
package hooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/telemetry"
)

// The headers of a signed request: the time of signing in Unix seconds, and
// "sha256=" and the hex HMAC-SHA256, keyed by the hook's secret, of the
// timestamp, a dot and the body (Sign).
const (
	HeaderTimestamp = "X-Signal-Bot-Timestamp"
	HeaderSignature = "X-Signal-Bot-Signature"
)

// Sign is the signature of body sent at timestamp (Unix seconds, as the
// header carries it) under secret.
func Sign(secret, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Request is the JSON body a hook receives.
type Request struct {
	Command   string `json:"command"`
	Args      string `json:"args"`
	Lang      string `json:"lang"`
	Chat      Chat   `json:"chat"`
	Sender    Sender `json:"sender"`
	Timestamp int64  `json:"timestamp"` // the message's, Unix milliseconds
}

// Chat is where the command was written: "group" or "direct", and the
// group's alias (SIGNAL_GROUPS) when it has one. Never a group's id.
type Chat struct {
	Kind  string `json:"kind"`
	Alias string `json:"alias,omitempty"`
}

// Sender is who wrote it: a keyed hash, stable for one bot, never the
// number or the UUID.
type Sender struct {
	ID string `json:"id"`
}

// Pictures readies a picture a hook's answer names or carries;
// pictures.Preparer is one.
type Pictures interface {
	FromURL(ctx context.Context, name, rawURL string) (commands.Picture, error)
	FromBytes(ctx context.Context, name string, data []byte) (commands.Picture, error)
}

// Deps are what every hook of the bot shares.
type Deps struct {
	// Client makes the calls: it reaches only the hooks (upstream.Hosts),
	// its spans are the upstream leg and it injects their trace context
	// (telemetry.Propagate).
	Client *http.Client
	// Pictures readies the answers' pictures, under the ordinary fetch policy.
	Pictures Pictures
	// PictureTimeout bounds fetching an answer's picture (UPSTREAM_TIMEOUT).
	PictureTimeout time.Duration
	// SenderKey keys the senders' ids the hooks see.
	SenderKey []byte
	// Count counts a call by command and outcome (Outcomes); nil: none.
	Count func(command, outcome string)
	// Now is the signatures' clock; nil: time.Now.
	Now func() time.Time
}

// Hook is one command's hook.
type Hook struct {
	Name    string // the command's
	URL     string
	Timeout time.Duration
	Secret  string // "": unsigned
}

// Run is the RunFunc of h's command.
func (d Deps) Run(h Hook) commands.RunFunc {
	return func(ctx context.Context, req commands.Request) (commands.Reply, error) {
		reply, err := d.call(ctx, h, req)
		outcome := outcomeOf(err)
		if d.Count != nil {
			d.Count(h.Name, outcome)
		}
		if err != nil {
			return commands.Reply{Text: req.Texts.Internal()}, fmt.Errorf("hook of !%s: %s: %w", h.Name, outcome, err)
		}
		return reply, nil
	}
}

// call posts req to h and reads its answer into a reply.
func (d Deps) call(ctx context.Context, h Hook, req commands.Request) (commands.Reply, error) {
	body, err := json.Marshal(d.request(h, req))
	if err != nil {
		return commands.Reply{}, fmt.Errorf("encode the request: %w", err)
	}
	hctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(hctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return commands.Reply{}, fmt.Errorf("%w: %w", errRefused, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "text/plain, application/json")
	hr.Header.Set("User-Agent", "signal-bot")
	if h.Secret != "" {
		ts := strconv.FormatInt(d.now().Unix(), 10)
		hr.Header.Set(HeaderTimestamp, ts)
		hr.Header.Set(HeaderSignature, Sign(h.Secret, ts, body))
	}
	a, err := d.post(hr)
	if err != nil {
		return commands.Reply{}, err
	}
	return d.reply(ctx, h, a)
}

// request is the body for req: nothing that names the sender or the group.
func (d Deps) request(h Hook, req commands.Request) Request {
	r := Request{
		Command: h.Name, Args: req.Args, Lang: req.Texts.Lang(),
		Chat:      Chat{Kind: telemetry.ChatKind(req.Chat.GroupID), Alias: req.Chat.Alias},
		Sender:    Sender{ID: telemetry.SenderHash(d.SenderKey, req.Sender)},
		Timestamp: req.Timestamp,
	}
	if r.Timestamp == 0 {
		r.Timestamp = req.Now.UnixMilli()
	}
	return r
}

func (d Deps) now() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}

// errRefused is a call the client would not make.
var errRefused = errors.New("request refused")
