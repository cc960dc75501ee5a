package bot_test

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/botest"
	"signal-bot/pkg/sim"
)

// describeSent is what the simulator recorded, one line per send, for the log
// of the owner tests.
func describeSent(sent []sim.Sent) string {
	var b strings.Builder
	for _, x := range sent {
		notify := "absent"
		if x.NotifySelf != nil {
			notify = fmt.Sprint(*x.NotifySelf)
		}
		text, _, _ := strings.Cut(x.Message, "\n")
		fmt.Fprintf(&b, "\n  to %v group %q notify_self %s quote_author %q ts %d: %q", x.Recipients, x.Group, notify, x.QuoteAuthor, x.Timestamp, text)
	}
	return b.String()
}

// The owner's commands, typed on the phone (or another linked device) of the
// bot's own account, come as sync "sent" transcripts: with OWNER_COMMANDS on
// (the default) they are answered like a member's, once, in a configured
// group (to the group) and in Note-to-Self (to the account's own number,
// with notify_self); with it off, or anywhere else, nothing is sent. The
// bot's safe defaults are on: ANSWER_IN=groups,members, the send budget, the
// !pomoc cooldown.
func TestOwnerCommands(t *testing.T) {
	t.Parallel()
	other := sha256.Sum256([]byte("a group of the owner's the bot does not serve"))
	self := sim.DefaultNumber
	ownUUID := sim.UUIDOf(self)
	tests := []struct {
		name  string
		owner string // OWNER_COMMANDS; "": the default
		env   map[string]string
		msgs  []sim.Message
		want  []string // each send: its recipient ("group" for the test group) and notify_self, "to/notify"
		first string   // the start of the first send's text; "": the command list
	}{
		{name: "group", msgs: []sim.Message{{Kind: sim.KindSync, Group: "testbot", Text: "!pomoc"}}, want: []string{"group/false"}},
		{name: "group, from a linked desktop", msgs: []sim.Message{{Kind: sim.KindSync, Group: "testbot", Device: 3, Text: "!pomoc"}}, want: []string{"group/false"}},
		{name: "note to self", msgs: []sim.Message{{Kind: sim.KindSync, To: self, Text: "!pomoc"}}, want: []string{self + "/true"}},
		{name: "note to self, cooldown applies", env: map[string]string{"REACTIONS": "off"}, msgs: []sim.Message{{Kind: sim.KindSync, To: self, Text: "!pomoc"}, {Kind: sim.KindSync, To: self, Text: "!pomoc"}, {Kind: sim.KindSync, To: self, Text: "!pomoc"}},
			want: []string{self + "/true", self + "/true"}}, // the answer, one "wait" as text (REACTIONS=off), then quiet
		{name: "note to self, scope applies", env: map[string]string{"SCOPES": "pomoc=groups"}, msgs: []sim.Message{{Kind: sim.KindSync, To: self, Text: "!pomoc"}},
			want: []string{self + "/true"}, first: "Komenda !pomoc"},
		{name: "group, off", owner: "off", msgs: []sim.Message{{Kind: sim.KindSync, Group: "testbot", Text: "!pomoc"}}},
		{name: "note to self, off", owner: "off", msgs: []sim.Message{{Kind: sim.KindSync, To: self, Text: "!pomoc"}}},
		{name: "to a friend", msgs: []sim.Message{{Kind: sim.KindSync, To: botest.Alice, Text: "!pomoc"}}},
		{name: "in a group not configured", msgs: []sim.Message{{Kind: sim.KindSync, Group: base64.StdEncoding.EncodeToString(other[:]), Text: "!pomoc"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{}
			for k, v := range tt.env {
				env[k] = v
			}
			if tt.owner != "" {
				env["OWNER_COMMANDS"] = tt.owner
			}
			h := botest.New(t, sim.Config{Lossless: true}, env)
			h.SafeDefaults(env)
			h.Start()
			for _, m := range tt.msgs {
				if _, err := h.Sim.Deliver(m); err != nil {
					t.Fatal(err)
				}
			}
			h.WaitIdle(len(tt.msgs))
			sent := h.Sim.Sent()
			t.Logf("simulator recorded %d sends:%s", len(sent), describeSent(sent))
			var got []string
			for _, x := range sent {
				to := x.Recipients[0]
				if to == botest.TestGroupRecipient() {
					to = "group"
				}
				notify := "absent"
				if x.NotifySelf != nil {
					notify = fmt.Sprint(*x.NotifySelf)
				}
				got = append(got, to+"/"+notify)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Fatalf("sends = %v; want %v", got, tt.want)
			}
			first := cmp.Or(tt.first, "Komendy w tym czacie:")
			if len(sent) > 0 && (!strings.HasPrefix(sent[0].Message, first) || sent[0].QuoteAuthor != "" && sent[0].QuoteAuthor != ownUUID) {
				t.Errorf("first reply %q quoting %q; want %q…, quoting the owner (%s) if at all", sent[0].Message, sent[0].QuoteAuthor, first, ownUUID)
			}
			if len(sent) > 1 && !strings.HasPrefix(sent[1].Message, "Poczekaj") {
				t.Errorf("second reply %q; want the cooldown's wait", sent[1].Message)
			}
		})
	}
}

// 250 of the bot's own sends come back as sync transcripts, each with the
// timestamp POST /v2/send answered, and read as a command (!pomoc, so each
// would be answered if taken for the owner's): none is handled. Then 250
// more sends, a restart within the echo window, and their echoes, which only
// the remembered sends in the state file can tell (the duplicate filter has
// never seen them): none is handled either. The owner's own !pomoc is
// answered before and after, so owner mode was on throughout.
func TestOwnSendsEchoedNeverHandled(t *testing.T) {
	const n = 250 // far below the sends remembered (bot.EchoSize): each echo is checked alike
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.Start()
	accepted := 0
	members := func(from int) {
		t.Helper()
		before := len(h.Sim.Sent())
		for i := range n {
			if _, err := h.Sim.Deliver(sim.Message{From: fmt.Sprintf("+48610%06d", from+i), Group: "testbot", Text: "!pomoc"}); err != nil {
				t.Fatal(err)
			}
		}
		accepted += n
		// 250 replies take a second, and minutes on a machine under -race
		// with other suites: more than WaitSent's minute.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if _, err := h.Sim.WaitSent(ctx, before+n); err != nil {
			t.Fatalf("waiting for %d sends: %v (got %d)", before+n, err, len(h.Sim.Sent()))
		}
	}
	echo := func() {
		t.Helper()
		before := len(h.Sim.Sent())
		out, err := h.Sim.EchoSent(sim.Echo{Last: n, Text: "!pomoc"})
		if err != nil || out.Delivered != n {
			t.Fatalf("echoes delivered: %+v, %v; want %d", out, err, n)
		}
		accepted += n
		h.WaitIdle(accepted)
		if got := len(h.Sim.Sent()); got != before {
			t.Fatalf("%d sends after %d echoes; want %d (none handled)", got, n, before)
		}
	}
	owner := func() {
		t.Helper()
		before := len(h.Sim.Sent())
		if _, err := h.Sim.Deliver(sim.Message{Kind: sim.KindSync, Group: "testbot", Text: "!pomoc"}); err != nil {
			t.Fatal(err)
		}
		accepted++
		h.WaitSent(before + 1)
		h.WaitIdle(accepted)
	}
	const skippedLine = "echo of the bot's own send skipped"
	members(0)
	echo()
	owner()
	members(n)
	skipped := strings.Count(h.Logs.String(), skippedLine)

	h.Stop()
	h.Start()
	accepted = 0
	echo()
	owner()
	if total := strings.Count(h.Logs.String(), skippedLine); skipped != n || total != 2*n {
		t.Errorf("echoes skipped as the bot's own: %d, then %d in all; want %d, %d", skipped, total, n, 2*n)
	}
	sent := h.Sim.Sent()
	t.Logf("simulator recorded %d sends: %d replies to members, the owner's:%s\n%d more replies to members, and after the restart the owner's:%s",
		len(sent), n, describeSent(sent[n:n+1]), n, describeSent(sent[2*n+1:]))
}

// The owner's Note-to-Self command from a linked desktop, by webhook (the
// JSON-RPC line the REST API POSTs): answered once, at the account's own
// number, with notify_self.
func TestOwnerCommandByWebhook(t *testing.T) {
	t.Parallel()
	h := botest.New(t, sim.Config{Lossless: true}, nil)
	h.StartWebhook()
	if _, err := h.Sim.Deliver(sim.Message{Kind: sim.KindSync, To: sim.DefaultNumber, Device: 3, Text: "!pomoc"}); err != nil {
		t.Fatal(err)
	}
	h.WaitIdle(1)
	sent := h.Sim.Sent()
	t.Logf("simulator recorded %d sends:%s", len(sent), describeSent(sent))
	if len(sent) != 1 || sent[0].Recipients[0] != sim.DefaultNumber || sent[0].NotifySelf == nil || !*sent[0].NotifySelf {
		t.Fatalf("sends = %+v; want one to %s with notify_self", sent, sim.DefaultNumber)
	}
}
