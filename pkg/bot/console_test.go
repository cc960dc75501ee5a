package bot

import (
	"context"
	"strings"
	"sync"
	"testing"

	"signal-bot/pkg/signalapi"
)

// echoConsole takes alice as its admin and answers each !bot with the
// length of what it was handed; it keeps the calls.
type echoConsole struct {
	mu    sync.Mutex
	calls []AdminCall
}

func (c *echoConsole) Admin(in signalapi.Incoming) (string, bool) {
	return "alice", in.SenderNumber == alice
}

func (c *echoConsole) Answer(_ context.Context, call AdminCall) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, call)
	return "ok"
}

// An admin's !bot reaches the console whole, not cut at a command's 256
// bytes of arguments: a plan of 30 slots, a text of 1,900 bytes, a plan
// as long as SCHEDULE may be (issue 33.4).
func TestAdminArgsWhole(t *testing.T) {
	h := newHarness(t, nil)
	con := &echoConsole{}
	h.bot.SetConsole(con)
	for _, args := range []string{
		"plan " + strings.TrimSuffix(strings.Repeat("rodzina=pomoc@08:00,", 30), ","),
		"tekst zasady " + strings.Repeat("Bądźcie mili. ", 130),
		"plan " + strings.Repeat("x", 128<<10),
	} {
		got := h.run(t, h.frame(msg{from: alice, text: "!bot " + args}))
		if len(got.sends) != 1 || got.sends[0].Text != "ok" {
			t.Fatalf("!bot %s…: sends %+v; want the console's answer", args[:10], got.sends)
		}
		con.mu.Lock()
		call := con.calls[len(con.calls)-1]
		con.mu.Unlock()
		if call.Args != strings.TrimSpace(args) {
			t.Errorf("!bot %s… of %d bytes reached the console as %d bytes", args[:10], len(args), len(call.Args))
		}
	}
}
