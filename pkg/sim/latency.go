package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Latency is the time each endpoint takes before it answers. A send costs a fixed part plus
// a part per KiB of request body, so a picture costs more than text.
type Latency struct {
	Send       time.Duration // fixed part of POST /v2/send
	SendPerKiB time.Duration // added per 1024 bytes of the /v2/send request body
	Groups     time.Duration // GET /v1/groups/… (a listGroups call to signal-cli)
	Typing     time.Duration // PUT and DELETE /v1/typing-indicator/…
	Reaction   time.Duration // POST and DELETE /v1/reactions/…
	Receipt    time.Duration // POST /v1/receipts/…
	FrameWrite time.Duration // extra cost of writing one websocket frame, on top of the real write
}

// ZeroLatency adds no latency anywhere: for unit tests and benchmarks.
func ZeroLatency() Latency { return Latency{} }

// DefaultLatency models the live host. It is a model until measured live: the only live
// figure is the !cat send, 2648 ms for a Cat API picture of about 140 KiB, which is about
// 190 KiB of base64 in the JSON body. 300 ms fixed (json-rpc text sends take about 0.3 s,
// signal-cli-rest-api#836) plus 12.4 ms per KiB gives 300 + 190 × 12.4 ≈ 2656 ms for that
// picture and about 302 ms for a short text. The other endpoints are guesses: typing,
// reactions and receipts are one small Signal send each; listGroups reads signal-cli's store.
// FrameWrite 50 µs stands for the real server's decode and write of a frame: with it, 20
// frames from POST /_sim/burst reached a connected bot as 2 to 5 of 20 (5 bursts, 2 cores),
// where the real server delivered 3 and 4 of 20 (docs/wire-format.md §1); without it, most
// bursts arrived whole.
func DefaultLatency() Latency {
	return Latency{
		Send:       300 * time.Millisecond,
		SendPerKiB: 12400 * time.Microsecond,
		Groups:     50 * time.Millisecond,
		Typing:     300 * time.Millisecond,
		Reaction:   300 * time.Millisecond,
		Receipt:    300 * time.Millisecond,
		FrameWrite: 50 * time.Microsecond,
	}
}

// LatencyProfile returns the named profile: "default" or "zero".
func LatencyProfile(name string) (Latency, error) {
	switch name {
	case "default":
		return DefaultLatency(), nil
	case "zero", "":
		return ZeroLatency(), nil
	}
	return Latency{}, fmt.Errorf("unknown latency profile %q (want default or zero)", name)
}

// SendCost is the latency of a /v2/send whose request body has n bytes.
func (l Latency) SendCost(n int) time.Duration {
	return l.Send + time.Duration(int64(l.SendPerKiB)*int64(n)/1024)
}

// latencyJSON is Latency on the wire: durations as Go duration strings ("300ms").
type latencyJSON struct {
	Profile    string       `json:"profile,omitempty"`
	Send       jsonDuration `json:"send"`
	SendPerKiB jsonDuration `json:"send_per_kib"`
	Groups     jsonDuration `json:"groups"`
	Typing     jsonDuration `json:"typing"`
	Reaction   jsonDuration `json:"reaction"`
	Receipt    jsonDuration `json:"receipt"`
	FrameWrite jsonDuration `json:"frame_write"`
}

// MarshalJSON encodes durations as strings such as "300ms".
func (l Latency) MarshalJSON() ([]byte, error) {
	return json.Marshal(latencyJSON{
		Send: jsonDuration(l.Send), SendPerKiB: jsonDuration(l.SendPerKiB),
		Groups: jsonDuration(l.Groups), Typing: jsonDuration(l.Typing),
		Reaction: jsonDuration(l.Reaction), Receipt: jsonDuration(l.Receipt),
		FrameWrite: jsonDuration(l.FrameWrite),
	})
}

// UnmarshalJSON decodes durations given as strings ("300ms") or integer nanoseconds. Fields
// that are absent keep their current value; "profile" ("default" or "zero") first resets
// every field to that profile.
func (l *Latency) UnmarshalJSON(b []byte) error {
	var probe struct {
		Profile *string `json:"profile"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return fmt.Errorf("decode latency: %w", err)
	}
	if probe.Profile != nil {
		p, err := LatencyProfile(*probe.Profile)
		if err != nil {
			return err
		}
		*l = p
	}
	w := latencyJSON{
		Send: jsonDuration(l.Send), SendPerKiB: jsonDuration(l.SendPerKiB),
		Groups: jsonDuration(l.Groups), Typing: jsonDuration(l.Typing),
		Reaction: jsonDuration(l.Reaction), Receipt: jsonDuration(l.Receipt),
		FrameWrite: jsonDuration(l.FrameWrite),
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return fmt.Errorf("decode latency: %w", err)
	}
	*l = Latency{
		Send: time.Duration(w.Send), SendPerKiB: time.Duration(w.SendPerKiB),
		Groups: time.Duration(w.Groups), Typing: time.Duration(w.Typing),
		Reaction: time.Duration(w.Reaction), Receipt: time.Duration(w.Receipt),
		FrameWrite: time.Duration(w.FrameWrite),
	}
	return nil
}

// jsonDuration is a time.Duration written as "1.5s" and read from a string or nanoseconds.
type jsonDuration time.Duration

// MarshalJSON writes the duration as a Go duration string.
func (d jsonDuration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a Go duration string or an integer number of nanoseconds.
func (d *jsonDuration) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("parse duration %q: %w", s, err)
		}
		*d = jsonDuration(v)
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil {
		return fmt.Errorf("parse duration %s: want a string like \"300ms\" or nanoseconds", b)
	}
	*d = jsonDuration(n)
	return nil
}

// latencyOf returns the current latency of a signal-cli call through ep (not /v2/send).
func (s *Sim) latencyOf(ep endpoint) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ep {
	case epGroups:
		return s.latency.Groups
	case epTyping:
		return s.latency.Typing
	case epReactions:
		return s.latency.Reaction
	case epReceipts:
		return s.latency.Receipt
	}
	return s.latency.Send
}
