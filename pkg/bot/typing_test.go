package bot

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"signal-bot/pkg/commands"
	"signal-bot/pkg/signalapi"
	"signal-bot/pkg/sim"
)

// budgetFunc is a TypingBudget from a function: the send budget that will
// implement the interface is not part of this package.
type budgetFunc func(chat string, now time.Time) bool

func (f budgetFunc) SpareTyping(chat string, now time.Time) bool { return f(chat, now) }

// showTyping shows the indicator only for a command that has one, that was
// accepted (not a refusal), and whose chat's budget can spare it; then it
// clears it once the reply is out.
func TestShowTyping(t *testing.T) {
	picture := &commands.Command{Name: "cat", Typing: true}
	text := &commands.Command{Name: "pomoc"}
	tests := []struct {
		name      string
		cmd       *commands.Command
		refusal   bool
		spare     bool
		wantShown bool
		wantLog   string
	}{
		{"picture command", picture, false, true, true, ""},
		{"budget low", picture, false, false, false, "typing indicator skipped: the chat's send budget is low"},
		{"text command", text, false, true, false, ""},
		{"cooldown refusal", picture, true, true, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := sim.New(sim.Config{})
			url, err := s.Start("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			hc := &http.Client{}
			t.Cleanup(hc.CloseIdleConnections)
			var logs bytes.Buffer
			var asked []string
			d := testDeps(t)
			d.Typing = testAPI(t, url, s.Number(), hc)
			d.TypingBudget = budgetFunc(func(chat string, _ time.Time) bool {
				asked = append(asked, chat)
				return tt.spare
			})
			d.Log = slog.New(slog.NewTextHandler(&logs, nil))
			b := New(d)
			w := &work{in: signalapi.Incoming{SenderNumber: "+48500000002"}, name: tt.cmd.Name,
				req: commands.Request{Command: tt.cmd}}
			if tt.refusal {
				w.reply = &commands.Reply{Text: "later"}
			}
			replied := b.showTyping(context.Background(), w)
			if tt.wantShown { // the reply goes out only once the indicator shows
				deadline := time.Now().Add(10 * time.Second)
				for len(s.Typings()) == 0 && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
			}
			replied()
			replied() // twice is harmless
			b.WaitTyping(context.Background())
			ty := s.Typings()
			switch {
			case tt.wantShown && (len(ty) != 2 || !ty[0].Started || ty[1].Started || ty[0].Recipient != "+48500000002"):
				t.Errorf("typing indicators = %+v; want shown, then cleared, for +48500000002", ty)
			case !tt.wantShown && len(ty) != 0:
				t.Errorf("typing indicators = %+v; want none", ty)
			}
			if tt.cmd.Typing && !tt.refusal && (len(asked) != 1 || asked[0] != "+48500000002") {
				t.Errorf("budget asked for %q; want once for the reply's recipient", asked)
			}
			if tt.wantLog != "" && !strings.Contains(logs.String(), tt.wantLog) {
				t.Errorf("log %q; want %q", logs.String(), tt.wantLog)
			}
		})
	}
}
