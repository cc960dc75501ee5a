package httpapi

import (
	"fmt"
	"net/http"
	"time"

	"signal-bot/pkg/admin"
	"signal-bot/pkg/bot"
	"signal-bot/pkg/journal"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/standing"
	"signal-bot/pkg/store"
)

// Health is GET /healthz.
type Health struct {
	Status string `json:"status"` // ok, or degraded for the reasons in Reasons
	// Reasons says why the status is degraded, one line each; empty when ok.
	Reasons       []string `json:"reasons"`
	Connected     bool     `json:"connected"`
	QueueDepth    int      `json:"queue_depth"`
	QueueCapacity int      `json:"queue_capacity"`
	Active        int      `json:"active"`
	Limit         int      `json:"limit"`
	Accepted      int64    `json:"accepted"`
	Dropped       int64    `json:"dropped"`
	TracesOpen    int      `json:"traces_open"`
	TracesEvicted uint64   `json:"traces_evicted"`
	Overrides     any      `json:"overrides"`
	// Changes are what admins changed in chat (!bot) over the environment's
	// defaults, until !bot reset: cooldowns, scopes (by group alias),
	// commands switched off, a pause.
	Changes admin.ChangeSet `json:"changes"`
	// State is the state file's writer: uses not yet on disk, commits, failures.
	State *store.WriterStats `json:"state,omitempty"`
	// Journal is the journal of accepted frames: pending, replayed at start,
	// dropped as too old, refused at intake on replay, run unjournaled
	// because it was full.
	Journal *journal.Stats `json:"journal,omitempty"`
	// Webhook is the POSTs the webhook refused unread (webhook mode only).
	Webhook *signalapi.WebhookStats `json:"webhook,omitempty"`

	// LastFrameAt is the read time of the last frame from the REST API (any
	// frame, receipts too); null while none has come since start.
	LastFrameAt *time.Time `json:"last_frame_at"`

	// Send is the sends' health: failures in a row (SendFailuresDegraded
	// of them make the status degraded), 201s with an unreadable answer.
	Send standing.SendStats `json:"send"`

	// Unreachable are the members replies do not reach now: a changed safety
	// number (identity; status degraded until it is trusted), or gone from
	// Signal (unregistered).
	Unreachable standing.Unreachable `json:"unreachable"`
	// CaptchaRequired is Signal asking for proof before the bot sends again:
	// status degraded until a captcha is accepted or a send goes; null when not.
	CaptchaRequired *CaptchaRequired `json:"captcha_required"`

	// The safety limits.
	SendPausedUntil *time.Time  `json:"send_paused_until"` // end of the pause after a 429; null while sends go
	SendBudget      *SendBudget `json:"send_budget"`       // the outbound budget per chat; null with SEND_BUDGET=off
	StateFailing    bool        `json:"state_failing"`     // the last recording of a use, or the last commit to the file, failed: status degraded
	DroppedSender   int64       `json:"dropped_sender_queue"`
	DroppedBytes    int64       `json:"dropped_queue_bytes"`
	HeldBytes       int64       `json:"held_bytes"`
}

// CaptchaRequired is the pending rate-limit challenge.
type CaptchaRequired struct {
	ChallengeToken string    `json:"challenge_token"`
	Since          time.Time `json:"since"`
	Do             string    `json:"do"` // what the operator does
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w, "GET")
		return
	}
	ps := s.d.Pipeline.Stats()
	ts := s.d.OwnTime.Stats()
	now := s.d.Now()
	h := Health{
		Status: "ok", Connected: s.d.Connected(),
		QueueDepth: ps.Depth, QueueCapacity: ps.Capacity, Active: ps.Active, Limit: ps.Limit,
		Accepted: ps.Accepted, Dropped: ps.Dropped,
		TracesOpen: ts.Open, TracesEvicted: ts.Evicted,
		Overrides: s.overrides(now),
	}
	if s.d.Changes != nil {
		h.Changes = s.d.Changes.Set(now)
	}
	if s.d.State != nil {
		st := s.d.State()
		h.State = &st
	}
	if s.d.Journal != nil {
		js := s.d.Journal()
		h.Journal = &js
	}
	if s.d.Webhook != nil {
		h.Webhook = s.d.Webhook()
	}
	h.DroppedSender, h.DroppedBytes, h.HeldBytes = ps.DroppedSender, ps.DroppedBytes, ps.HeldBytes
	h.SendBudget = s.sendBudget(now)
	if until := s.d.Bot.Gate().PausedUntil(now); !until.IsZero() {
		h.SendPausedUntil = &until
	}
	h.StateFailing, _ = s.d.Bot.StateFailing()
	h.StateFailing = h.StateFailing || h.State != nil && h.State.Failing
	h.Send = s.d.Standing.SendStats()
	h.Unreachable = s.d.Standing.Unreachable()
	if tok, since := s.d.Bot.Gate().Challenge(); tok != "" {
		h.CaptchaRequired = &CaptchaRequired{ChallengeToken: tok, Since: since, Do: standing.CaptchaAdvice}
	}
	h.Reasons = degraded(&h)
	if s.d.Heard != nil {
		heard := s.d.Heard()
		h.LastFrameAt = heard.LastFrameAt
		if r := silence(heard, s.cfg.SilenceDegraded, now); r != "" {
			h.Reasons = append(h.Reasons, r)
		}
	}
	status := http.StatusOK
	if len(h.Reasons) > 0 {
		h.Status, status = "degraded", http.StatusServiceUnavailable
	}
	writeJSON(w, status, h)
}

// degraded lists why h is not ok: no link to the REST API, a failing state
// file, webhook frames taken in memory and not yet on disk, sends failing,
// sends paused after a 429, a captcha asked for, members whose safety
// number changed.
func degraded(h *Health) []string {
	out := []string{}
	if !h.Connected {
		out = append(out, "not connected to signal-cli-rest-api")
	}
	if h.StateFailing {
		out = append(out, "state file: recording or committing uses fails")
	}
	if j := h.Journal; j != nil && j.Behind > 0 && j.BehindSince != nil {
		out = append(out, fmt.Sprintf("webhook frames taken in memory, not on disk: %d since %s (their journal entries wait for a commit that succeeds; a crash now loses them)",
			j.Behind, j.BehindSince.UTC().Format(time.RFC3339)))
	}
	if h.Send.Failing {
		out = append(out, fmt.Sprintf("sends failing: the last %d failed, since %s; the last with: %s",
			h.Send.FailedInRow, h.Send.FailingSince.UTC().Format(time.RFC3339), h.Send.LastError))
	}
	if h.SendPausedUntil != nil {
		out = append(out, "sends paused after a rate limit (429) until "+h.SendPausedUntil.UTC().Format(time.RFC3339Nano))
	}
	if c := h.CaptchaRequired; c != nil {
		out = append(out, fmt.Sprintf("captcha_required: Signal asks for proof before the bot sends again (challenge token %s, since %s): %s",
			c.ChallengeToken, c.Since.UTC().Format(time.RFC3339), c.Do))
	}
	if n := h.Unreachable.Identity(); n > 0 {
		out = append(out, fmt.Sprintf("%d member(s) unreachable: their safety number changed (IDENTITY_FAILURE) and signal-cli will not send to them until it is trusted (docs/troubleshooting.md#a-members-safety-number-changed)", n))
	}
	return out
}

// silence is the reason /healthz is degraded when nothing has been heard
// from the REST API for longer than limit (SILENCE_DEGRADED; 0: never), "" when not.
func silence(h bot.Heard, limit time.Duration, now time.Time) string {
	age := h.Age(now)
	if limit <= 0 || age <= limit {
		return ""
	}
	since := "the last frame at " + h.Last().UTC().Format(time.RFC3339)
	if h.LastFrameAt == nil {
		since = "no frame since the start at " + h.Since.UTC().Format(time.RFC3339)
	}
	return fmt.Sprintf("nothing heard from signal-cli-rest-api for %s (%s), over SILENCE_DEGRADED=%s",
		age.Truncate(time.Second), since, limit)
}

// healthOverride is an active cooldown override as /healthz shows it: by
// the group's alias, never its signal-cli id, which is a secret of the group.
type healthOverride struct {
	Group   string    `json:"group"`
	Command string    `json:"command"`
	Until   time.Time `json:"until"`
}

// overrides lists the active overrides by alias.
func (s *Server) overrides(now time.Time) []healthOverride {
	out := []healthOverride{}
	for _, o := range s.d.Bot.Overrides().List(now) {
		alias := s.d.Groups.Alias(o.Chat)
		if alias == "" {
			alias = "(unnamed group)"
		}
		out = append(out, healthOverride{Group: alias, Command: o.Command, Until: o.Until})
	}
	return out
}
