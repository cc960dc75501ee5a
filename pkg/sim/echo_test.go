package sim

import (
	"encoding/json"
	"strconv"
	"testing"
)

// Recorded sends come back as sync transcripts with their timestamps, to their group or
// their one recipient, from the bot's linked device; notify_self is recorded as given, and
// beside it what the REST API made of it (absent is true).
func TestEchoSent(t *testing.T) {
	h := start(t, Config{Lossless: true})
	conn := h.dial("%2B48500000001")
	g := TestGroup()
	const friend = "+48500000002"
	for _, tt := range []struct {
		to     string
		notify any // nil: left out
	}{{g.ID(), nil}, {friend, false}, {DefaultNumber, true}} {
		extra := map[string]any{}
		if tt.notify != nil {
			extra["notify_self"] = tt.notify
		}
		if r := h.do("POST", "/v2/send", sendBody(DefaultNumber, []string{tt.to}, "Komendy", extra)); r.status != 201 {
			t.Fatalf("send to %s: %d %s", tt.to, r.status, r.body)
		}
	}
	sent := h.sim.Sent()
	if sent[0].NotifySelf != nil || sent[1].NotifySelf == nil || *sent[1].NotifySelf || sent[2].NotifySelf == nil || !*sent[2].NotifySelf {
		t.Errorf("recorded notify_self = %v, %v, %v; want nil, false, true", sent[0].NotifySelf, sent[1].NotifySelf, sent[2].NotifySelf)
	}
	if !sent[0].NotifiedSelf || sent[1].NotifiedSelf || !sent[2].NotifiedSelf {
		t.Errorf("notified_self = %v, %v, %v; want true (the REST default), false, true", sent[0].NotifiedSelf, sent[1].NotifiedSelf, sent[2].NotifiedSelf)
	}
	r := h.do("POST", "/_sim/echo", `{"last":2,"text":"!pomoc"}`)
	var out Outcome
	if err := json.Unmarshal([]byte(r.body), &out); r.status != 202 || err != nil || out.Delivered != 2 {
		t.Fatalf("POST /_sim/echo = %d %s; want 202 with 2 delivered", r.status, r.body)
	}
	if _, err := h.sim.EchoSent(Echo{Last: 3}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		sent      Sent
		text, dst string // dst "": a group
	}{{sent[1], "!pomoc", friend}, {sent[2], "!pomoc", DefaultNumber}, {sent[0], "Komendy", ""}, {sent[1], "Komendy", friend}, {sent[2], "Komendy", DefaultNumber}} {
		env := wantObject(t, readFrame(t, conn), "envelope")
		wantValue(t, env, "sourceNumber", DefaultNumber)
		wantValue(t, env, "sourceDevice", strconv.Itoa(BotDevice))
		wantValue(t, env, "timestamp", strconv.FormatInt(want.sent.Timestamp, 10))
		sm := wantObject(t, wantObject(t, env, "syncMessage"), "sentMessage")
		wantValue(t, sm, "timestamp", strconv.FormatInt(want.sent.Timestamp, 10))
		wantValue(t, sm, "message", want.text)
		if want.dst == "" {
			wantValue(t, sm, "destination", nil)
			wantValue(t, wantObject(t, sm, "groupInfo"), "groupId", g.InternalID)
		} else {
			wantValue(t, sm, "destinationNumber", want.dst)
			wantAbsent(t, sm, "groupInfo")
		}
		if t.Failed() {
			t.Fatalf("echo %d is wrong", i)
		}
	}
}
