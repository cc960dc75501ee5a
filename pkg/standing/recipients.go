package standing

import (
	"context"
	"sync"
	"time"

	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/telemetry"
)

// Bounds of the recipient failures kept: members remembered as unreachable,
// sender hashes held for the next log line.
const (
	maxUnreachable   = 1024
	maxFailureHashes = 32
	failureLogEvery  = time.Minute
)

// Unreachable are the members the bot's replies do not reach now, for
// /healthz and the admins' status: whose safety number changed
// (IDENTITY_FAILURE, or a direct chat's send refused for it) or who left
// Signal (UNREGISTERED_FAILURE), as the last send to their chat said.
type Unreachable struct {
	Members  int            `json:"members"`
	ByReason map[string]int `json:"by_reason"`       // by RecipientError.Label: identity, unregistered
	Since    *time.Time     `json:"since,omitempty"` // the oldest of them
}

// Identity is how many members cannot be reached for a changed safety number.
func (u Unreachable) Identity() int { return u.ByReason["identity"] }

type unreachable struct {
	chat, label string
	since       time.Time
}

// recipientHealth follows the recipients that sends named as failed.
type recipientHealth struct {
	mu      sync.Mutex
	members map[string]unreachable // member key → why
	counts  map[string]int         // label → failures since the last log line
	hashes  []string               // their sender hashes, at most maxFailureHashes
	logAt   time.Time
}

// noteRecipients takes a send's failed recipients to chat: counted, logged at
// most once a minute (counts and sender hashes, never an identity), and the
// unreachable members of chat updated: the ones named now are unreachable,
// the others of chat are reached again. A send that names none costs a lock.
func (a *Account) noteRecipients(ctx context.Context, chat string, failed []signalapi.RecipientError, now time.Time) {
	h := &a.recipients
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(failed) == 0 && len(h.members) == 0 {
		return
	}
	for k, u := range h.members {
		if u.chat == chat {
			delete(h.members, k)
		}
	}
	for _, f := range failed {
		label := f.Label()
		if a.d.Recorder != nil {
			a.d.Recorder.RecipientFailed(label)
		}
		if h.counts == nil {
			h.counts = map[string]int{}
		}
		h.counts[label]++
		if len(h.hashes) < maxFailureHashes {
			h.hashes = append(h.hashes, telemetry.SenderHash(a.d.HashKey, f.Key()))
		}
		if (label == "identity" || label == "unregistered") && len(h.members) < maxUnreachable {
			h.members[f.Key()] = unreachable{chat: chat, label: label, since: now}
		}
	}
	if len(h.counts) > 0 && now.Sub(h.logAt) >= failureLogEvery {
		a.d.Log.WarnContext(ctx, "recipients a send did not reach (counts since the last such line; see docs/faults.md)",
			"by_reason", h.counts, "sender_hashes", h.hashes, "unreachable_members", len(h.members))
		h.counts, h.hashes, h.logAt = nil, nil, now
	}
}

// Unreachable reports the members the bot's replies do not reach now.
func (a *Account) Unreachable() Unreachable {
	h := &a.recipients
	h.mu.Lock()
	defer h.mu.Unlock()
	u := Unreachable{Members: len(h.members), ByReason: map[string]int{}}
	for _, m := range h.members {
		u.ByReason[m.label]++
		if u.Since == nil || m.since.Before(*u.Since) {
			since := m.since
			u.Since = &since
		}
	}
	return u
}
