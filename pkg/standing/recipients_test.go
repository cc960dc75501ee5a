package standing

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/outbound"
	"signal-bot/pkg/signalapi"
)

// counts is a Recorder that counts recipient failures by label.
type counts map[string]int

func (c counts) RecipientFailed(reason string) { c[reason]++ }

// The answers to sends, one after another, and what the standing makes of
// each: the members replies do not reach (by chat: a later send to the same
// chat says again), the failures counted, and logged by sender hash at most
// once a minute (what came between goes in the next line), rate-limited
// recipients pausing every send, a send that goes ending the pending
// challenge.
func TestRecipients(t *testing.T) {
	const group, direct = "group.Z3JvdXA=", "d1rec700-0000-4000-8000-000000000007"
	t0 := time.Now()
	var logs bytes.Buffer
	rec := counts{}
	gate := outbound.New(outbound.Config{RateLimitPause: time.Minute, RateLimitPauseMax: time.Hour})
	a := New(Deps{Gate: gate, Log: slog.New(slog.NewTextHandler(&logs, nil)), HashKey: []byte("key"), Recorder: rec})
	ctx := context.Background()
	failed := func(reason, uuid string) signalapi.RecipientError {
		return signalapi.RecipientError{UUID: uuid, Number: "+4860000000" + uuid[:1], Reason: reason}
	}
	steps := []struct {
		name       string
		do         func(now time.Time)
		wantMember map[string]int // unreachable by reason
		wantCounts counts
		wantLines  int  // log lines about recipients so far
		wantPaused bool // every send paused
	}{
		{"a send that reaches all", func(now time.Time) {
			a.Sent(ctx, "pomoc", group, signalapi.SendResult{}, now)
		}, map[string]int{}, counts{}, 0, false},
		{"two unreachable, one limited, one network fault", func(now time.Time) {
			a.Sent(ctx, "pomoc", group, signalapi.SendResult{Failed: []signalapi.RecipientError{
				failed(signalapi.ReasonIdentity, "1dentity"), failed(signalapi.ReasonUnregistered, "2nregist"),
				failed(signalapi.ReasonRateLimit, "3atelimi"), failed(signalapi.ReasonNetwork, "4etwork0"),
			}}, now)
		}, map[string]int{"identity": 1, "unregistered": 1}, counts{"identity": 1, "unregistered": 1, "rate_limit": 1, "network": 1}, 1, true},
		{"a direct chat's member changed safety number", func(now time.Time) {
			a.Failed(ctx, "pomoc", direct, true, fmt.Errorf("send: %w", signalapi.ErrUntrustedIdentity), now)
		}, map[string]int{"identity": 2, "unregistered": 1}, counts{"identity": 2, "unregistered": 1, "rate_limit": 1, "network": 1}, 1, true},
		{"the group reached again, a minute on: the held count logged", func(now time.Time) {
			a.Sent(ctx, "pomoc", group, signalapi.SendResult{}, now.Add(time.Minute))
		}, map[string]int{"identity": 1}, counts{"identity": 2, "unregistered": 1, "rate_limit": 1, "network": 1}, 2, true},
	}
	for i, st := range steps {
		now := t0.Add(time.Duration(i) * time.Second)
		st.do(now)
		u := a.Unreachable()
		if !maps.Equal(u.ByReason, st.wantMember) || u.Members != sum(st.wantMember) {
			t.Errorf("%s: Unreachable = %+v; want %v", st.name, u, st.wantMember)
		}
		if u.Members > 0 && (u.Since == nil || u.Since.Before(t0)) {
			t.Errorf("%s: Unreachable.Since = %v; want the oldest, from %v on", st.name, u.Since, t0)
		}
		if !maps.Equal(rec, st.wantCounts) {
			t.Errorf("%s: counted %v; want %v", st.name, rec, st.wantCounts)
		}
		if n := strings.Count(logs.String(), "recipients a send did not reach"); n != st.wantLines {
			t.Errorf("%s: %d log lines of failed recipients; want %d", st.name, n, st.wantLines)
		}
		if paused := !gate.PausedUntil(now).IsZero(); paused != st.wantPaused {
			t.Errorf("%s: paused %v; want %v", st.name, paused, st.wantPaused)
		}
	}
	for _, id := range []string{"1dentity", "2nregist", "3atelimi", "4etwork0", "48600000", direct} {
		if strings.Contains(logs.String(), id) {
			t.Errorf("the log names a recipient (%s):\n%s", id, logs.String())
		}
	}
	if u := a.Unreachable(); u.Identity() != 1 {
		t.Errorf("Identity() = %d; want the direct chat's member", u.Identity())
	}
	gate.RateLimited(t0, 0, []string{"token"})
	a.Sent(ctx, "pomoc", direct, signalapi.SendResult{}, t0)
	if tok, _ := gate.Challenge(); tok != "" {
		t.Errorf("a send that went left the challenge %q pending", tok)
	}
	if u := a.Unreachable(); u.Members != 0 {
		t.Errorf("after a send to the direct chat went: %+v; want none unreachable", u)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
