package sim

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

// Bucket is one token bucket of Signal's rate limiter: Size sends at once, one more every
// Every. The zero Bucket limits nothing.
type Bucket struct {
	Size  int           // tokens when full
	Every time.Duration // one token back per Every
}

// on reports whether the bucket limits anything.
func (b Bucket) on() bool { return b.Size > 0 && b.Every > 0 }

// Limits are the Signal server's rate limits as the simulator enforces them in POST /v2/send.
// The zero value enforces none.
type Limits struct {
	// Messages is per (bot account, recipient) pair; each member of a group send counts.
	Messages Bucket
	// Attachments is per bot account; each attachment of a send is one upload.
	Attachments Bucket
}

// SignalLimits are the open-source Signal server's defaults: messages a bucket of 60 per
// sender→recipient pair refilled 1 per second, attachment uploads a bucket of 50 per account
// refilled 1 per 1.2 s. Production values may differ.
func SignalLimits() Limits {
	return Limits{
		Messages:    Bucket{Size: 60, Every: time.Second},
		Attachments: Bucket{Size: 50, Every: 1200 * time.Millisecond},
	}
}

// LimitsProfile returns the named limits: "signal" or "off".
func LimitsProfile(name string) (Limits, error) {
	switch name {
	case "signal":
		return SignalLimits(), nil
	case "off", "":
		return Limits{}, nil
	}
	return Limits{}, fmt.Errorf("unknown limits profile %q (want signal or off)", name)
}

// limiter holds the buckets' levels. Buckets are created full when first used and forgotten
// once full again, so idle recipients take no memory.
type limiter struct {
	mu          sync.Mutex
	limits      Limits
	messages    map[string]level
	attachments level
}

// level is a bucket's tokens at a time.
type level struct {
	tokens float64
	at     time.Time
}

func newLimiter(l Limits) *limiter {
	return &limiter{limits: l, messages: make(map[string]level)}
}

// refill returns lv's tokens at now under b; an unknown bucket (zero time) is full.
func refill(b Bucket, lv level, now time.Time) float64 {
	if lv.at.IsZero() {
		return float64(b.Size)
	}
	return min(float64(b.Size), lv.tokens+float64(now.Sub(lv.at))/float64(b.Every))
}

// set replaces the limits and starts every bucket full.
func (l *limiter) set(lim Limits) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.limits, l.messages, l.attachments = lim, make(map[string]level), level{}
}

func (l *limiter) get() Limits {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limits
}

// verdict is what the limits make of one send.
type verdict struct {
	refused bool     // the whole send fails: signal-cli's rate-limit error, a 429
	results int      // signal-cli's failed results of a refusal, one "" challenge token each
	limited []string // recipients that failed while others got the message
}

// take charges a send of attachments uploads to recipients at now. Uploads come first, as
// in signal-cli: without tokens for all of them nothing is sent. Then each recipient takes
// a message token or fails with a rate limit; when all fail the send is refused.
func (l *limiter) take(recipients []string, attachments int, now time.Time) verdict {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.limits.Attachments; b.on() && attachments > 0 {
		t := refill(b, l.attachments, now)
		if t < float64(attachments) {
			return refuse(1)
		}
		l.attachments = level{tokens: t - float64(attachments), at: now}
	}
	b := l.limits.Messages
	if !b.on() {
		return verdict{}
	}
	var v verdict
	for _, r := range recipients {
		t := refill(b, l.messages[r], now)
		if t < 1 {
			v.limited = append(v.limited, r)
			continue
		}
		l.messages[r] = level{tokens: t - 1, at: now}
	}
	if len(recipients) > 0 && len(v.limited) == len(recipients) {
		return refuse(len(recipients))
	}
	l.forgetFull(b, now)
	return v
}

// refuse is a send refused by a plain rate limit (Signal's 413 with a retry time, not a
// demand for proof): signal-cli's results carry no token, so the REST API's 429 lists one ""
// per result. A captcha demand is SetCaptcha's.
func refuse(results int) verdict {
	return verdict{refused: true, results: results}
}

// forgetFull drops the message buckets that are full again, when there are many.
func (l *limiter) forgetFull(b Bucket, now time.Time) {
	if len(l.messages) < 1024 {
		return
	}
	for r, lv := range l.messages {
		if refill(b, lv, now) >= float64(b.Size) {
			delete(l.messages, r)
		}
	}
}

// Limits returns the rate limits in force.
func (s *Sim) Limits() Limits { return s.limiter.get() }

// SetLimits replaces the rate limits; every bucket starts full.
func (s *Sim) SetLimits(l Limits) { s.limiter.set(l) }

// bucketJSON is a Bucket on the wire: {"size":60,"every":"1s"}.
type bucketJSON struct {
	Size  int          `json:"size"`
	Every jsonDuration `json:"every"`
}

// limitsJSON is Limits on the wire.
type limitsJSON struct {
	Profile     string     `json:"profile,omitempty"`
	Messages    bucketJSON `json:"messages"`
	Attachments bucketJSON `json:"attachments"`
}

// MarshalJSON writes {"messages":{"size":60,"every":"1s"},"attachments":{…}}.
func (l Limits) MarshalJSON() ([]byte, error) {
	return json.Marshal(limitsJSON{
		Messages:    bucketJSON{l.Messages.Size, jsonDuration(l.Messages.Every)},
		Attachments: bucketJSON{l.Attachments.Size, jsonDuration(l.Attachments.Every)},
	})
}

// UnmarshalJSON reads the MarshalJSON form; "profile" ("signal" or "off") first resets both
// buckets to that profile, and buckets that are absent keep their value.
func (l *Limits) UnmarshalJSON(b []byte) error {
	var probe struct {
		Profile *string `json:"profile"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return fmt.Errorf("decode limits: %w", err)
	}
	if probe.Profile != nil {
		p, err := LimitsProfile(*probe.Profile)
		if err != nil {
			return err
		}
		*l = p
	}
	w := limitsJSON{
		Messages:    bucketJSON{l.Messages.Size, jsonDuration(l.Messages.Every)},
		Attachments: bucketJSON{l.Attachments.Size, jsonDuration(l.Attachments.Every)},
	}
	if err := decodeStrict(b, &w); err != nil {
		return fmt.Errorf("decode limits: %w", err)
	}
	if w.Messages.Size < 0 || w.Attachments.Size < 0 || w.Messages.Every < 0 || w.Attachments.Every < 0 {
		return fmt.Errorf("decode limits: sizes and periods must not be negative")
	}
	*l = Limits{
		Messages:    Bucket{w.Messages.Size, time.Duration(w.Messages.Every)},
		Attachments: Bucket{w.Attachments.Size, time.Duration(w.Attachments.Every)},
	}
	return nil
}
