package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"sync"
	"time"
)

// Values of --pace.
const (
	paceOn  = "on"  // hold each selftest until the test chat's send budget has room for its reply
	paceOff = "off" // send as fast as asked; the replies' waits show as send_wait_ms
)

// sendBudget is the bot's send budget per chat as /healthz shows it.
type sendBudget struct {
	ChatBurst   int     `json:"chat_burst"`
	ChatPeriodS float64 `json:"chat_period_s"`
	TestChats   []struct {
		Group  string  `json:"group"`
		Tokens float64 `json:"tokens"`
	} `json:"test_chats"`
}

// tokens is what group holds of the budget now; ok false when /healthz does
// not list it (a group given by its id).
func (b sendBudget) tokens(group string) (float64, bool) {
	for _, c := range b.TestChats {
		if c.Group == group {
			return c.Tokens, true
		}
	}
	return 0, false
}

// health reads the send budget from the bot's /healthz; nil when the bot has
// none (SEND_BUDGET=off) or does not say (an older bot).
func (c *client) sendBudget(ctx context.Context) (*sendBudget, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/healthz", nil)
	if err != nil {
		return nil, fmt.Errorf("GET /healthz: %w", err)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("GET /healthz: %w", err)
	}
	defer res.Body.Close()
	var h struct {
		SendBudget *sendBudget `json:"send_budget"`
	}
	// A degraded bot answers 503 with the same body.
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&h); err != nil {
		return nil, fmt.Errorf("GET /healthz: %s: %w", res.Status, err)
	}
	if h.SendBudget != nil && (h.SendBudget.ChatBurst < 1 || h.SendBudget.ChatPeriodS <= 0) {
		return nil, nil
	}
	return h.SendBudget, nil
}

// pacer holds each request until the test chat's bucket, as the bot keeps it
// (a burst, refilled one token per per), has a token for its reply, so that
// no reply waits in the bot for the budget. It starts from the tokens the bot
// reported; with refresh set (the closed loop, which has no reply in flight
// while it waits) it asks the bot again before a hold, so other traffic in
// the chat is counted too.
type pacer struct {
	mu      sync.Mutex
	burst   float64
	per     time.Duration
	tokens  float64
	at      time.Time
	refresh func(context.Context) (float64, bool)
	held    int           // requests held
	waited  time.Duration // held for, in all
}

// take waits until a token is there and takes it; it returns how long it
// held the request, or ctx's error.
func (p *pacer) take(ctx context.Context) (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refill(time.Now())
	if p.tokens < 1 && p.refresh != nil {
		if t, ok := p.refresh(ctx); ok {
			p.tokens, p.at = t, time.Now()
		}
	}
	var d time.Duration
	if p.tokens < 1 {
		// A millisecond more than the bucket needs: the bot's refill must not
		// fall short of ours by a rounding.
		d = time.Duration((1-p.tokens)*float64(p.per)) + time.Millisecond
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return 0, ctx.Err()
		case <-t.C:
		}
		p.held++
		p.waited += d
		p.refill(time.Now())
	}
	p.tokens--
	return d, nil
}

func (p *pacer) refill(now time.Time) {
	if now.After(p.at) {
		p.tokens = math.Min(p.burst, p.tokens+float64(now.Sub(p.at))/float64(p.per))
		p.at = now
	}
}

// holds is how many requests the pacer held, and for how long in all.
func (p *pacer) holds() (int, time.Duration) {
	if p == nil {
		return 0, 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held, p.waited
}

// paceInfo is how the run was paced, for the report.
type paceInfo struct {
	Mode        string  `json:"mode"` // on, off, or none: the bot has no send budget
	ChatBurst   int     `json:"chat_burst,omitempty"`
	ChatPeriodS float64 `json:"chat_period_s,omitempty"`
	Held        int     `json:"held"`   // requests the tool held for the budget
	HeldS       float64 `json:"held_s"` // how long, in all
}

// startPacing reads the test chat's send budget and returns the pacer for
// the run (nil: none), saying on w what it does.
func startPacing(ctx context.Context, c *client, o options, w io.Writer) (*pacer, paceInfo) {
	info := paceInfo{Mode: o.pace}
	b, err := c.sendBudget(ctx)
	if err != nil {
		fmt.Fprintf(w, "latency: warning: cannot read the send budget (%v): not pacing\n", err)
	}
	if b == nil {
		if err == nil {
			fmt.Fprintln(w, "latency: the bot reports no send budget (SEND_BUDGET=off, or an older bot): not pacing")
		}
		info.Mode = "none"
		return nil, info
	}
	info.ChatBurst, info.ChatPeriodS = b.ChatBurst, b.ChatPeriodS
	per := time.Duration(b.ChatPeriodS / float64(b.ChatBurst) * float64(time.Second))
	tokens, known := b.tokens(o.group)
	if !known {
		tokens = float64(b.ChatBurst)
	}
	rate := fmt.Sprintf("%d replies at once, then one every %s (SEND_BUDGET_CHAT %d/%gs)", b.ChatBurst, per.Round(time.Millisecond), b.ChatBurst, b.ChatPeriodS)
	if o.pace == paceOff {
		fmt.Fprintf(w, "latency: --pace off: replies beyond %s's send budget, %s, wait in the bot; the wait shows as send_wait_ms\n", o.group, rate)
		return nil, info
	}
	p := &pacer{burst: float64(b.ChatBurst), per: per, tokens: tokens, at: time.Now()}
	if !o.openLoop() && known {
		p.refresh = func(ctx context.Context) (float64, bool) {
			b, err := c.sendBudget(ctx)
			if err != nil || b == nil {
				return 0, false
			}
			return b.tokens(o.group)
		}
	}
	fmt.Fprintf(w, "latency: pacing to %s's send budget, %s; %.0f free now, so %d requests take about %s (--pace off sends as fast as asked)\n",
		o.group, rate, math.Max(tokens, 0), o.planned(), pacedEstimate(o, tokens, per).Round(time.Second))
	return p, info
}

// pacedEstimate is how long the run takes at least when paced: the requests
// beyond the tokens free come one per per.
func pacedEstimate(o options, tokens float64, per time.Duration) time.Duration {
	d := time.Duration(math.Max(0, float64(o.planned())-math.Floor(math.Max(tokens, 0)))) * per
	if o.openLoop() {
		d = max(d, o.duration)
	}
	return d
}
