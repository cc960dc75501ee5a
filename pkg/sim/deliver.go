package sim

import (
	"encoding/json"
	"fmt"
)

// Outcome counts what became of the copies of offered frames.
type Outcome struct {
	Offered             int `json:"offered"`
	Delivered           int `json:"delivered"`
	DroppedNoSubscriber int `json:"dropped_no_subscriber"`
	DroppedBusy         int `json:"dropped_busy"`
	WebhookQueued       int `json:"webhook_queued"` // lines queued for the webhook (see Stats for their fate)
}

// add accumulates o2 into o.
func (o *Outcome) add(o2 Outcome) {
	o.Offered += o2.Offered
	o.Delivered += o2.Delivered
	o.DroppedNoSubscriber += o2.DroppedNoSubscriber
	o.DroppedBusy += o2.DroppedBusy
	o.WebhookQueued += o2.WebhookQueued
}

// Deliver builds the frame of m and offers it to the websocket clients of the bot account,
// as signal-cli's notification would be. The loss knobs apply: with no client the frame is
// lost; in lossy mode (the default) a client whose writer is still writing an earlier frame
// misses it, as on the real server, so a test that needs every frame sets Lossless. It
// returns the envelope timestamp.
func (s *Sim) Deliver(m Message) (int64, error) {
	b, ts, err := s.buildFrame(m)
	if err != nil {
		return 0, fmt.Errorf("deliver message: %w", err)
	}
	s.emit(s.number, b)
	return ts, nil
}

// DeliverRaw offers frame verbatim, for tests of malformed frames. The real server passes on
// only frames whose "account" matches the path; a raw frame goes to the clients of the
// account it names, or to every client when it names none or does not parse.
func (s *Sim) DeliverRaw(frame []byte) {
	var probe struct {
		Account string `json:"account"`
	}
	_ = json.Unmarshal(frame, &probe)
	s.emit(probe.Account, append([]byte(nil), frame...))
}

// emit hands one notification to its sinks: the websocket clients, and in webhook mode
// (RECEIVE_WEBHOOK_URL, docs/wire-format.md §1) the read loop that POSTs the JSON-RPC line.
func (s *Sim) emit(account string, frame []byte) Outcome {
	if url := s.WebhookURL(); url != "" {
		return s.emitWebhook(url, account, frame)
	}
	return s.offer(account, frame)
}

// offer gives frame to every client subscribed to account ("" means every client). In lossy
// mode it is the real server's non-blocking send to an unbuffered channel; in lossless mode
// the frame joins the client's queue, waiting only when that queue is full.
func (s *Sim) offer(account string, frame []byte) Outcome {
	s.stats.offered.Add(1)
	out := Outcome{Offered: 1}
	s.mu.Lock()
	lossless := s.lossless
	var targets []*subscriber
	for sub := range s.subs {
		if account == "" || sub.number == account {
			targets = append(targets, sub)
		}
	}
	s.mu.Unlock()
	if len(targets) == 0 {
		s.stats.noSub.Add(1)
		out.DroppedNoSubscriber++
		return out
	}
	for _, sub := range targets {
		switch s.offerOne(sub, frame, lossless) {
		case offerTaken:
			s.stats.delivered.Add(1)
			out.Delivered++
		case offerBusy:
			s.stats.busy.Add(1)
			out.DroppedBusy++
		case offerGone:
			s.stats.noSub.Add(1)
			out.DroppedNoSubscriber++
		}
	}
	return out
}

// offerResult is what became of one copy of a frame.
type offerResult int

const (
	offerTaken offerResult = iota // the client's writer took it
	offerBusy                     // the writer was busy; lost
	offerGone                     // the client went away first; lost
)

// offerOne offers frame to one client. In lossy mode it is the real server's non-blocking
// send on an unbuffered channel, with one difference: when the send fails although the
// writer is not writing (it has just been registered, or is between two frames and not yet
// back in its select), the offer waits for it. The real server loses such frames too, but
// only by scheduling noise; here only a busy writer loses frames, so counts are repeatable
// and a frame delivered right after WaitSubscribers arrives.
func (s *Sim) offerOne(sub *subscriber, frame []byte, lossless bool) offerResult {
	ch := sub.queue
	if !lossless {
		select {
		case sub.frames <- frame:
			return offerTaken
		default:
		}
		if sub.writing.Load() {
			return offerBusy
		}
		ch = sub.frames
	}
	select {
	case ch <- frame:
		return offerTaken
	case <-sub.done:
		return offerGone
	case <-s.done:
		return offerGone
	}
}
