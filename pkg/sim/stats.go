package sim

import "sync/atomic"

// Stats counts what the simulator did since New. Frame counters follow the real server:
// a frame is offered once; each subscriber of its account then takes a copy (Delivered), or
// misses it because its writer was busy (DroppedBusy). A frame whose account has no
// subscriber is DroppedNoSubscriber. Written counts copies actually written to a socket.
type Stats struct {
	Offered             int64 `json:"offered"`
	Delivered           int64 `json:"delivered"`
	Written             int64 `json:"written"`
	DroppedNoSubscriber int64 `json:"dropped_no_subscriber"`
	DroppedBusy         int64 `json:"dropped_busy"`
	Sends               int64 `json:"sends"`          // /v2/send answered 201
	SendsRejected       int64 `json:"sends_rejected"` // /v2/send answered 400 by validation, not by a fault
	FaultsInjected      int64 `json:"faults_injected"`
	Typing              int64 `json:"typing"`         // typing indicators accepted (start and stop)
	Reactions           int64 `json:"reactions"`      // reactions accepted (send and remove)
	Receipts            int64 `json:"receipts"`       // receipts accepted
	WebhookPosted       int64 `json:"webhook_posted"` // lines the webhook answered 200 or 201
	WebhookFailed       int64 `json:"webhook_failed"` // lines lost: any other answer, no answer, or not postable
	Subscribers         int   `json:"subscribers"`
	InFlight            int64 `json:"in_flight"` // requests being served now; an open websocket is one

	// The rate limits (Limits); injected 429s count as faults, not here.
	RateLimited       int64 `json:"rate_limited"`            // /v2/send answered 429: every recipient was over its limit, or the uploads were
	RecipientsLimited int64 `json:"recipients_rate_limited"` // recipients left out of a send that others got, by the message limit
}

// counters are the live, lock-free counters behind Stats.
type counters struct {
	offered, delivered, written, noSub, busy atomic.Int64
	sends, rejected, faults                  atomic.Int64
	typing, reactions, receipts              atomic.Int64
	webhookPosted, webhookFailed             atomic.Int64
	rateLimited, recipientsLimited           atomic.Int64
	inFlight                                 atomic.Int64
}

// Stats returns a snapshot of the counters and the current number of websocket clients.
func (s *Sim) Stats() Stats {
	s.mu.Lock()
	subs := len(s.subs)
	s.mu.Unlock()
	c := &s.stats
	return Stats{
		Offered:             c.offered.Load(),
		Delivered:           c.delivered.Load(),
		Written:             c.written.Load(),
		DroppedNoSubscriber: c.noSub.Load(),
		DroppedBusy:         c.busy.Load(),
		Sends:               c.sends.Load(),
		SendsRejected:       c.rejected.Load(),
		FaultsInjected:      c.faults.Load(),
		Typing:              c.typing.Load(),
		Reactions:           c.reactions.Load(),
		Receipts:            c.receipts.Load(),
		WebhookPosted:       c.webhookPosted.Load(),
		WebhookFailed:       c.webhookFailed.Load(),
		Subscribers:         subs,
		InFlight:            c.inFlight.Load(),
		RateLimited:         c.rateLimited.Load(),
		RecipientsLimited:   c.recipientsLimited.Load(),
	}
}
